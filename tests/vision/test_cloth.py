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


@pytest.mark.parametrize("seed", [2, 6])
def test_only_what_a_dark_ball_cannot_be_told_from_reads_blind(seed: int) -> None:
    # the far pockets' holes and the dark rail behind them, unchanged, read
    # blind to a dark ball (seed 3086's black before one went unfound); a
    # white there changes them, and is not blind
    rng = np.random.default_rng(seed)
    cam = make_camera("broadcast", rng, size=(1920, 1080))
    app = random_appearance(rng)
    names = ("white", *OFFICIAL.spots)
    xy = np.array([[-1100.0, 120.0], *OFFICIAL.spots.values()])
    det = BallDetector(truth_calibration(cam))
    det.detect(render_scene(cam, app, names, xy, rng).image)
    assert det.cloth is not None
    far = -float(np.sign(det.view.cal.pose.centre_mm[0]))
    xy[0] = (far * 1750.0, -860.0)
    sc = render_scene(cam, app, names, xy, rng)
    u, v = np.round(sc.xy_px[0]).astype(int)
    r = int(det.view.radius_px(sc.xy_px[:1])[0])
    ox, oy = det.cloth.origin
    box = (slice(v - 3 * r, v + 3 * r), slice(u - 3 * r, u + 3 * r))
    blind = det.cloth.blind(sc.image[box], (u - 3 * r - ox, v - 3 * r - oy))
    yy, xx = np.mgrid[-3 * r:3 * r, -3 * r:3 * r]
    on_ball = xx**2 + yy**2 <= (0.8 * r) ** 2
    assert (blind == 2).sum() > on_ball.sum()  # the hole and the rail about it
    assert not (blind[on_ball] == 2).any()
