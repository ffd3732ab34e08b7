"""Tests of sim.render: balls land where the camera projects them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from calibration.table import OFFICIAL
from sim.camera import make_camera
from sim.render import Balls, random_appearance, render_frame, render_frame_info

SIZE = (640, 360)
R = OFFICIAL.ball_radius


def _setup(kind: str, seed: int):
    rng = np.random.default_rng(seed)
    cam = make_camera(kind, rng, size=SIZE)
    app = dataclasses.replace(
        random_appearance(rng), shadow=0.0, noise_sigma=0.0, blur_sigma=0.0
    )
    return cam, app


@pytest.mark.parametrize("kind", ["overhead", "broadcast"])
def test_rendered_ball_centres_match_projection(kind: str) -> None:
    cam, app = _setup(kind, 11)
    rng = np.random.default_rng(0)
    empty = render_frame(cam, Balls((), np.zeros((0, 3))), app, rng).astype(float)
    points = [(-1200.0, 300.0), (0.0, 0.0), (900.0, -600.0), (1500.0, 700.0)]
    for x, y in points:
        xyz = np.array([[x, y, R]])
        img = render_frame(cam, Balls(("yellow",), xyz), app, rng).astype(float)
        diff = np.abs(img - empty).sum(axis=2)
        ys, xs = np.nonzero(diff > 30)
        expected = cam.project(xyz)[0]
        assert len(xs) > 10
        centre = np.array([xs.mean(), ys.mean()])
        assert np.linalg.norm(centre - expected) < 0.35, (x, y, centre, expected)


def test_full_rack_frame_and_visibility() -> None:
    rng = np.random.default_rng(3)
    cam = make_camera("broadcast", rng, size=SIZE)
    app = random_appearance(rng)
    names = ("white", *OFFICIAL.spots)
    xyz = np.array(
        [[-1200.0, 100.0, R]] + [[x, y, R] for x, y in OFFICIAL.spots.values()]
    )
    img, vis = render_frame_info(cam, Balls(names, xyz), app, rng)
    assert img.shape == (SIZE[1], SIZE[0], 3) and img.dtype == np.uint8
    assert np.all(vis > 0.9)
    # A ball off the edge of the image is not visible.
    _, vis2 = render_frame_info(
        cam, Balls(("red",), np.array([[-9000.0, 0.0, R]])), app, rng
    )
    assert vis2[0] == 0.0


def test_motion_blur_spreads_the_ball() -> None:
    cam, app = _setup("overhead", 4)
    rng = np.random.default_rng(0)
    path = np.stack([np.array([[x, 0.0, R]]) for x in np.linspace(-100, 100, 8)])
    sharp = render_frame(cam, Balls(("white",), path[4]), app, rng)
    blurred = render_frame(cam, Balls(("white",), path[4], path=path), app, rng)
    bright = lambda im: int((im.sum(axis=2) > 500).sum())  # noqa: E731
    assert bright(blurred) != bright(sharp)
