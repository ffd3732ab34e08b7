"""The cloth model: what is cloth in later frames, whatever stood on it at first."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from calibration.table import OFFICIAL
from sim.camera import make_camera
from sim.render import random_appearance
from sim.scenes import pack_positions, render_scene, truth_calibration
from vision.detect import BallDetector


@pytest.mark.parametrize(("kind", "seed"), [("overhead", 3), ("broadcast", 4)])
def test_the_cloth_where_the_pack_stood_is_cloth_once_it_has_gone(
        kind: str, seed: int) -> None:
    # seed 643: learned from the first frame, the full pack of reds had made the
    # local cloth colour red there, and a white rolling across that cloth after
    # the break was unseen for 17 frames
    rng = np.random.default_rng(seed)
    cam = make_camera(kind, rng, size=(1920, 1080))
    app = dataclasses.replace(random_appearance(rng), light_offset_mm=(0.0, 0.0))
    pack = np.array(pack_positions(OFFICIAL))
    racked = render_scene(cam, app, ("white", *["red"] * len(pack)),
                          np.vstack([[-1200.0, 150.0], pack]), rng)
    centre = pack.mean(axis=0)
    later = render_scene(cam, app, ("white",), centre[None], rng)
    det = BallDetector(truth_calibration(cam))
    det.detect(racked.image)  # learns the cloth
    assert det.cloth is not None
    # the cloth over the pack's place, a ball's width and more from the white
    px = det.view.to_image(pack)
    far = np.linalg.norm(pack - centre, axis=1) > 3 * OFFICIAL.ball_radius
    ox, oy = det.cloth.origin
    x0, y0 = np.floor(px.min(axis=0)).astype(int) - (ox, oy)
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 1 - (ox, oy)
    fg = det.cloth.foreground(later.image[y0 + oy:y1 + oy, x0 + ox:x1 + ox],
                              (int(x0), int(y0)))
    at = np.round(px[far] - (ox + x0, oy + y0)).astype(int)
    assert fg[at[:, 1], at[:, 0]].max() < 0.5
    found = det.detect(later.image)
    err = np.linalg.norm(found.xy_mm - centre, axis=1)
    assert len(found) == 1 and err[0] < 5.0
    assert found.kind_names()[0] == "white"
