"""The evaluation's truth: balls hidden behind nearer balls do not count as seen."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from calibration.table import OFFICIAL
from sim.camera import make_camera
from sim.scenes import truth_calibration

_SPEC = importlib.util.spec_from_file_location(
    "vision_eval", Path(__file__).parents[2] / "benchmarks" / "vision_eval.py")
assert _SPEC is not None and _SPEC.loader is not None
vision_eval = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(vision_eval)
ball_cover = vision_eval.ball_cover


def test_a_ball_behind_another_is_hidden_by_its_share() -> None:
    cam = make_camera("broadcast", np.random.default_rng(7), size=(960, 540))
    cal = truth_calibration(cam)
    r = OFFICIAL.ball_radius
    centre = cal.pose.centre_mm
    near = np.array([600.0, 0.0])
    # the far ball straight behind the near one, seen from the camera, and
    # touching it; a third far off to the side
    away = near - centre[:2]
    away /= np.linalg.norm(away)
    far = near + 2 * r * away
    pos = np.array([[[*near, r], [*far, r], [near[0], 500.0, r]]])
    px = cal.table_to_image(pos[0, :, :2], z_mm=r)[None]
    cover = ball_cover(pos, px, cal)[0]
    assert cover[0] == 0.0 and cover[2] == 0.0  # nothing nearer hides them
    assert 0.3 < cover[1] < 1.0  # the near ball hides much of the far one
    pos[0, 1] = [np.nan, np.nan, np.nan]  # potted: not counted, hides nothing
    assert ball_cover(pos, px, cal)[0].tolist() == [0.0, 0.0, 0.0]
