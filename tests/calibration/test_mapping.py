"""Point-pair calibration, the pose, planes above the cloth and calibration files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.mapping import (
    CalibrationError,
    fit_points,
    load_calibration,
    parse_points,
    save_calibration,
)
from calibration.table import OFFICIAL, TABLES
from sim.camera import Camera, look_at

SIZE = (1920, 1080)


def _camera(eye: list[float], focal: float, up: list[float]) -> Camera:
    """A distortion-free camera at ``eye`` looking at the blue spot."""
    r, t = look_at(np.array(eye), np.zeros(3), np.array(up))
    k = np.array([[focal, 0, SIZE[0] / 2], [0, focal, SIZE[1] / 2], [0, 0, 1.0]])
    return Camera(K=k, dist=np.zeros(5), R=r, t=t, width=SIZE[0], height=SIZE[1])


CAMERAS = {
    "broadcast": _camera([-4500.0, 100, 2500], 2000, [0.0, 0, 1]),
    "overhead": _camera([50.0, 20, 5000], 1700, [0.0, -1, 0]),
    "side": _camera([300.0, 3500, 3000], 1500, [0.0, 0, 1]),
}


def _pairs(camera: str, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    tab = np.array([OFFICIAL.named_points[n] for n in names])
    img = CAMERAS[camera].project(np.column_stack([tab, np.zeros(len(tab))]))
    return img, tab


@pytest.mark.parametrize("camera", list(CAMERAS))
@pytest.mark.parametrize(
    "names",
    [
        ["baulk_left", "baulk_right", "top_left", "top_right"],
        ["yellow", "green", "black", "top_left", "middle_right"],
        list(OFFICIAL.named_points),
    ],
)
def test_fit_points_round_trip(camera: str, names: list[str]) -> None:
    img, tab = _pairs(camera, names)
    cal = fit_points(img, tab, SIZE, names=names)
    assert cal.residuals_mm.shape == (len(names),)
    assert cal.rms_mm < 0.05
    assert np.allclose(cal.image_to_table(img), tab, atol=0.05)
    assert np.allclose(cal.table_to_image(tab), img, atol=0.01)


@pytest.mark.parametrize("camera", ["broadcast", "side"])
def test_ball_centres_map_through_their_plane(camera: str) -> None:
    img, tab = _pairs(camera, list(OFFICIAL.named_points))
    cal = fit_points(img, tab, SIZE)
    balls = np.array([[100.0, 200.0], [1500.0, -800.0], [-1600.0, 700.0]])
    seen = CAMERAS[camera].project(np.column_stack([balls, np.full(3, 26.25)]))
    assert np.allclose(cal.ball_centres_to_table(seen), balls, atol=1.0)
    # the cloth plane would be wrong by centimetres for an oblique camera
    assert np.max(np.linalg.norm(cal.image_to_table(seen) - balls, axis=1)) > 10


def test_outlier_is_reported() -> None:
    names = list(OFFICIAL.named_points)
    img, tab = _pairs("broadcast", names)
    img[3] += (40.0, -30.0)
    cal = fit_points(img, tab, SIZE, names=names)
    assert cal.residuals_mm[3] > 25
    assert np.median(cal.residuals_mm) < 1


@pytest.mark.parametrize(
    ("names", "tweak", "message"),
    [
        (["baulk_left", "baulk_right", "top_left"], None, "at least 4"),
        (["yellow", "brown", "green", "top_left"], None, "collinear"),
        (["blue", "pink", "black", "brown", "top_left"], None, "collinear"),
        (["baulk_left", "baulk_right", "top_left", "top_right"], "off", "off the"),
        (["baulk_left", "baulk_right", "top_left", "top_right"], "mirror", "mirrored"),
        (["baulk_left", "baulk_right", "top_left", "top_right"], "fold", "folded"),
        (["baulk_left", "baulk_right", "top_left", "top_right"], "dup", "same"),
    ],
)
def test_degenerate_points(names: list[str], tweak: str | None, message: str) -> None:
    img, tab = _pairs("broadcast", names)
    if tweak == "off":
        tab[0] = (-2500.0, 0.0)
    elif tweak == "mirror":
        img[:, 0] = SIZE[0] - img[:, 0]
    elif tweak == "fold":
        img[[0, 2]] = img[[2, 0]]
    elif tweak == "dup":
        img[1] = img[0]
    with pytest.raises(CalibrationError, match=message):
        fit_points(img, tab, SIZE)


def test_save_load_round_trip(tmp_path: Path) -> None:
    names = list(OFFICIAL.named_points)
    img, tab = _pairs("broadcast", names)
    cal = fit_points(img, tab, SIZE, table="official", names=names)
    path = tmp_path / "table.json"
    save_calibration(cal, path)
    data = json.loads(path.read_text())
    assert data["version"] == 1 and len(data["homography"]) == 3
    again = load_calibration(path)
    assert np.allclose(again.homography, cal.homography)
    assert again.residual_names == cal.residual_names
    assert np.allclose(again.ball_centres_to_table(img), cal.ball_centres_to_table(img))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{", "not JSON"),
        ('{"format": "other"}', "not a"),
        ('{"format": "baulk-calibration", "version": 99}', "version"),
    ],
)
def test_load_rejects(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        load_calibration(path)


def test_parse_points_forms() -> None:
    img, tab, names = parse_points({"points": {"blue": [1, 2], "pink": [3, 4]}})
    assert names == ["blue", "pink"] and tab[1, 0] == OFFICIAL.spots["pink"][0]
    img, tab, _ = parse_points([{"table_mm": [10, 20], "px": [5, 6]}])
    assert tab.tolist() == [[10.0, 20.0]] and img.tolist() == [[5.0, 6.0]]
    with pytest.raises(CalibrationError, match="unknown table point"):
        parse_points({"points": {"purple": [1, 2]}})


@pytest.mark.parametrize("name", list(TABLES))
def test_named_points_on_table(name: str) -> None:
    spec = TABLES[name]
    for x, y in spec.named_points.values():
        assert abs(x) <= spec.half_length and abs(y) <= spec.half_width
