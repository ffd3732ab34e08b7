"""Lens distortion from synthetic checkerboards rendered with a known lens."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.lens import (
    Lens,
    lens_from_checkerboards,
    load_lens,
    save_lens,
)
from calibration.mapping import CalibrationError, fit_points
from calibration.table import OFFICIAL
from sim.camera import look_at

SIZE = (800, 600)
K = np.array([[620.0, 0, 404.0], [0, 620.0, 296.0], [0, 0, 1.0]])
DIST = np.array([-0.28, 0.09, 0.0005, -0.0004, 0.0])
PATTERN = (8, 5)  # inner corners
SQUARE = 30.0  # mm


def _board_texture(px_per_square: int = 24) -> tuple[np.ndarray, float]:
    """Checkerboard texture (uint8) with a white margin; returns (image, mm/px)."""
    cols, rows = PATTERN[0] + 1, PATTERN[1] + 1
    margin = 1
    tex = np.full(
        ((rows + 2 * margin) * px_per_square, (cols + 2 * margin) * px_per_square),
        255,
        np.uint8,
    )
    for r in range(rows):
        for c in range(cols):
            if (r + c) % 2 == 0:
                y0 = (r + margin) * px_per_square
                x0 = (c + margin) * px_per_square
                tex[y0 : y0 + px_per_square, x0 : x0 + px_per_square] = 0
    return tex, SQUARE / px_per_square


def _render(rvec: np.ndarray, tvec: np.ndarray) -> np.ndarray:
    """The board seen through the distorted camera K, DIST (inverse mapping)."""
    tex, mm_per_px = _board_texture()
    w, h = SIZE
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    pix = np.stack([gx.ravel(), gy.ravel()], axis=1).reshape(-1, 1, 2)
    norm = cv2.undistortPoints(pix, K, DIST).reshape(-1, 2)  # ideal rays
    r = cv2.Rodrigues(rvec)[0]
    # board plane z = 0 (board mm, origin at the texture's top-left corner)
    h_b2n = np.column_stack([r[:, 0], r[:, 1], tvec])
    q = np.column_stack([norm, np.ones(len(norm))]) @ np.linalg.inv(h_b2n).T
    xy = q[:, :2] / q[:, 2:3] / mm_per_px
    out = cv2.remap(
        tex,
        xy[:, 0].reshape(h, w).astype(np.float32),
        xy[:, 1].reshape(h, w).astype(np.float32),
        cv2.INTER_LINEAR,
        borderValue=128,
    )
    return cv2.GaussianBlur(out, (0, 0), 0.7)


def _views() -> list[np.ndarray]:
    """Eight views of the board, tilted, spread over the frame (corners included)."""
    rng = np.random.default_rng(7)
    tex, mm_per_px = _board_texture()
    centre = np.array([tex.shape[1], tex.shape[0], 0.0]) * mm_per_px / 2
    images = []
    for ox, oy in [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0), (-1, 0), (1, 0), (0, 1)]:
        eye = centre + np.array(
            [ox * 90 + rng.uniform(-20, 20), oy * 60 + rng.uniform(-20, 20), -420.0]
        )
        target = centre + np.array([-ox * 60, -oy * 40, 0.0])
        r, t = look_at(eye, target, np.array([0.0, -1.0, 0.0]), rng.uniform(-8, 8))
        images.append(_render(cv2.Rodrigues(r)[0].reshape(3), t))
    return images


@pytest.fixture(scope="module")
def lens() -> Lens:
    return lens_from_checkerboards(_views(), PATTERN, SQUARE)


def test_lens_recovers_known_distortion(lens: Lens, tmp_path: Path) -> None:
    assert lens.views >= 6
    assert lens.rms_px < 0.3
    assert abs(lens.camera_matrix[0, 0] / K[0, 0] - 1) < 0.02
    # what matters: the same pixels come out undistorted the same way, where the
    # boards were seen (the frame's corners are extrapolation)
    w, h = SIZE
    gx, gy = np.meshgrid(
        np.linspace(0.15 * w, 0.85 * w, 9), np.linspace(0.15 * h, 0.85 * h, 7)
    )
    pix = np.stack([gx.ravel(), gy.ravel()], axis=1)
    truth = cv2.undistortPoints(pix.reshape(-1, 1, 2), K, DIST).reshape(-1, 2)
    found = cv2.undistortPoints(
        pix.reshape(-1, 1, 2), lens.camera_matrix, lens.dist_coeffs
    ).reshape(-1, 2)
    # compare as pixels of the true focal length
    assert np.max(np.linalg.norm(found - truth, axis=1)) * K[0, 0] < 1.0
    path = tmp_path / "lens.json"
    save_lens(lens, path)
    again = load_lens(path)
    assert np.allclose(again.camera_matrix, lens.camera_matrix)
    assert np.allclose(again.dist_coeffs, lens.dist_coeffs)


def test_lens_applied_to_points(lens: Lens) -> None:
    """Point pairs seen through the distorted lens map right once the lens is given."""
    r, t = look_at(np.array([-5200.0, 0, 4600]), np.zeros(3), np.array([0.0, 0, 1]))
    names = list(OFFICIAL.named_points)
    tab = np.array([OFFICIAL.named_points[n] for n in names])
    xyz = np.column_stack([tab, np.zeros(len(tab))])
    img, _ = cv2.projectPoints(xyz, cv2.Rodrigues(r)[0], t, lens.camera_matrix,
                               lens.dist_coeffs)
    img = img.reshape(-1, 2)
    with_lens = fit_points(img, tab, SIZE, names=names, lens=lens)
    without = fit_points(img, tab, SIZE, names=names)
    assert with_lens.rms_mm < 0.5
    assert without.rms_mm > 5 * with_lens.rms_mm
    assert np.allclose(with_lens.image_to_table(img), tab, atol=1.0)
    assert np.allclose(with_lens.table_to_image(tab), img, atol=0.2)


def test_too_few_boards() -> None:
    blank = np.full((SIZE[1], SIZE[0]), 200, np.uint8)
    with pytest.raises(CalibrationError, match="at least 3"):
        lens_from_checkerboards([blank] * 3, PATTERN, SQUARE)


def test_command_with_lens(lens: Lens, tmp_path: Path) -> None:
    from baulk.cli import main
    from calibration.mapping import load_calibration

    r, t = look_at(np.array([-5200.0, 0, 4600]), np.zeros(3), np.array([0.0, 0, 1]))
    names = ["baulk_left", "baulk_right", "top_left", "top_right", "blue", "black"]
    tab = np.array([OFFICIAL.named_points[n] for n in names])
    xyz = np.column_stack([tab, np.zeros(len(tab))])
    img, _ = cv2.projectPoints(xyz, cv2.Rodrigues(r)[0], t, lens.camera_matrix,
                               lens.dist_coeffs)
    points = tmp_path / "points.json"
    pairs = dict(zip(names, img.reshape(-1, 2).tolist(), strict=True))
    points.write_text(json.dumps({"points": pairs}))
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), np.zeros((SIZE[1], SIZE[0], 3), np.uint8))
    save_lens(lens, tmp_path / "lens.json")
    out = tmp_path / "table.json"
    argv = ["calibrate", str(frame), "--points", str(points), "--lens",
            str(tmp_path / "lens.json"), "-o", str(out)]
    assert main(argv) == 0
    cal = load_calibration(out)
    assert cal.dist_coeffs is not None
    assert np.allclose(cal.image_to_table(img.reshape(-1, 2)), tab, atol=1.0)
