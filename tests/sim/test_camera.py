"""Tests of sim.camera: projection, homographies, random constructors."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import OFFICIAL
from sim.camera import Camera, broadcast_camera, make_camera, overhead_camera

CORNERS = np.array([[*OFFICIAL.corners[k], 0.0] for k in OFFICIAL.corners])


@pytest.mark.parametrize("kind", ["overhead", "broadcast"])
@pytest.mark.parametrize("seed", range(8))
def test_table_in_view(kind: str, seed: int) -> None:
    cam = make_camera(kind, np.random.default_rng(seed))
    px = cam.project(CORNERS)
    assert np.all(px[:, 0] > 0) and np.all(px[:, 0] < cam.width)
    assert np.all(px[:, 1] > 0) and np.all(px[:, 1] < cam.height)
    assert np.all(cam.depth(CORNERS) > 0)


def test_same_seed_same_camera() -> None:
    a = overhead_camera(np.random.default_rng(3))
    b = overhead_camera(np.random.default_rng(3))
    assert a.key() == b.key()


def test_broadcast_orientation() -> None:
    cam = broadcast_camera(np.random.default_rng(0))
    c = {k: cam.project(np.array([*v, 0.0]))[0] for k, v in OFFICIAL.corners.items()}
    # Baulk end near (image bottom), left (+y) on the image left.
    assert c["baulk_left"][1] > c["top_left"][1]
    assert c["baulk_left"][0] < c["baulk_right"][0]
    # Strong perspective: the near end is wider than the far end.
    near = c["baulk_right"][0] - c["baulk_left"][0]
    far = c["top_right"][0] - c["top_left"][0]
    assert near > 1.2 * far


@pytest.mark.parametrize("kind", ["overhead", "broadcast"])
def test_homography_matches_projection_without_distortion(kind: str) -> None:
    cam = make_camera(kind, np.random.default_rng(5))
    rng = np.random.default_rng(1)
    xy = rng.uniform([-1700, -850], [1700, 850], size=(50, 2))
    h = cam.homography_cloth()
    q = np.column_stack([xy, np.ones(50)]) @ h.T
    ideal = q[:, :2] / q[:, 2:]
    # The homography gives undistorted pixels: undistort the real projection.
    real = cam.project_cloth(xy)
    np.testing.assert_allclose(cam.undistort_px(real), ideal, atol=1e-3)
    np.testing.assert_allclose(cam.pixel_to_cloth(real), xy, atol=1e-2)
    hinv = cam.homography_cloth_inv()
    np.testing.assert_allclose(hinv @ h / (hinv @ h)[2, 2], np.eye(3), atol=1e-9)


def test_dict_round_trip() -> None:
    cam = make_camera("broadcast", np.random.default_rng(2))
    back = Camera.from_dict(cam.to_dict())
    assert back.key() == cam.key()
    pts = np.array([[0.0, 0.0, 26.25], [1000.0, -500.0, 0.0]])
    np.testing.assert_allclose(back.project(pts), cam.project(pts))


def test_camera_is_frozen() -> None:
    cam = overhead_camera(np.random.default_rng(0))
    with pytest.raises(AttributeError):
        cam.width = 5  # type: ignore[misc]
    with pytest.raises(ValueError):
        cam.K[0, 0] = 1.0
