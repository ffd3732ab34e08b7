"""Lens intrinsics and distortion from checkerboard images (OpenCV).

Shoot a printed checkerboard held at several angles across the frame, then::

    lens = lens_from_checkerboards(images, pattern=(9, 6), square_mm=25.0)
    save_lens(lens, "lens.json")

The lens is then given to ``fit_points`` / ``auto_calibrate`` (or ``baulk calibrate
--lens lens.json``): it is stored in the calibration and applied to points (pixels
are undistorted before they are mapped), never to whole frames.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.mapping import CalibrationError, read_json, write_atomic

LENS_FORMAT = "baulk-lens"


@dataclass(frozen=True)
class Lens:
    """A camera's intrinsics and lens distortion.

    Attributes:
        camera_matrix: (3, 3) float64 K in pixels (fx, fy, cx, cy).
        dist_coeffs: (N,) float64 OpenCV distortion (k1, k2, p1, p2, k3[, ...]).
        image_size: (width, height) in pixels the lens was calibrated at.
        rms_px: RMS reprojection error of the checkerboard corners, pixels.
        views: Number of checkerboard views used.
    """

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms_px: float = 0.0
    views: int = 0

    def undistort(self, points_px: Any) -> np.ndarray:
        """(N, 2) captured pixels to (N, 2) ideal pinhole pixels (same K)."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        if len(pts) == 0:
            return np.zeros((0, 2))
        k = self.camera_matrix
        return cv2.undistortPoints(pts, k, self.dist_coeffs, P=k).reshape(-1, 2)

    def distort(self, points_px: Any) -> np.ndarray:
        """(N, 2) ideal pinhole pixels to (N, 2) captured pixels."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        if len(pts) == 0:
            return np.zeros((0, 2))
        k = self.camera_matrix
        norm = np.hstack([pts, np.ones((len(pts), 1))]) @ np.linalg.inv(k).T
        out, _ = cv2.projectPoints(
            norm.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k, self.dist_coeffs
        )
        return out.reshape(-1, 2)

    def scaled(self, image_size: tuple[int, int]) -> Lens:
        """The same lens for frames of another size (same aspect ratio).

        Raises:
            CalibrationError: the aspect ratio differs (a crop, not a scale).
        """
        w0, h0 = self.image_size
        w, h = image_size
        if abs(w / w0 - h / h0) > 0.01 * w / w0:
            raise CalibrationError(
                f"lens calibrated at {w0}x{h0}, frames are {w}x{h}: not a rescale"
            )
        k = self.camera_matrix.copy()
        k[0] *= w / w0
        k[1] *= h / h0
        return Lens(k, self.dist_coeffs, (w, h), self.rms_px, self.views)


def find_board(
    image: np.ndarray, pattern: tuple[int, int]
) -> np.ndarray | None:
    """Sub-pixel inner corners (N, 2) px of a checkerboard, or None when not found.

    Args:
        image: BGR or grey uint8 image.
        pattern: Inner corners per row and per column, e.g. (9, 6).
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    ok, corners = cv2.findChessboardCorners(gray, pattern, flags=flags)
    if not ok:
        return None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 1e-3)
    corners = cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), criteria)
    return corners.reshape(-1, 2).astype(np.float64)


def lens_from_checkerboards(
    images: Sequence[np.ndarray],
    pattern: tuple[int, int] = (9, 6),
    square_mm: float = 25.0,
    rational: bool = False,
) -> Lens:
    """Calibrate a lens from checkerboard views.

    Args:
        images: BGR or grey frames, all the same size, each showing the board.
        pattern: Inner corners per row and per column.
        square_mm: Side of one square (only scales the boards' poses).
        rational: Fit OpenCV's rational model (8 coefficients) for strong
            wide-angle distortion; else k1, k2, p1, p2, k3.

    Raises:
        CalibrationError: frames of different sizes, or fewer than three views in
            which the whole board was found.
    """
    if not images:
        raise CalibrationError("no checkerboard images given")
    size = (images[0].shape[1], images[0].shape[0])
    cols, rows = pattern
    grid = np.zeros((cols * rows, 3), np.float32)
    grid[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square_mm
    obj, img = [], []
    for i, image in enumerate(images):
        if (image.shape[1], image.shape[0]) != size:
            raise CalibrationError(f"checkerboard image {i} is not {size[0]}x{size[1]}")
        corners = find_board(image, pattern)
        if corners is not None:
            obj.append(grid)
            img.append(corners.astype(np.float32).reshape(-1, 1, 2))
    if len(img) < 3:
        raise CalibrationError(
            f"checkerboard {cols}x{rows} found in {len(img)} of {len(images)} "
            "images: need at least 3 views"
        )
    flags = cv2.CALIB_RATIONAL_MODEL if rational else 0
    rms, k, dist, _, _ = cv2.calibrateCamera(obj, img, size, None, None, flags=flags)
    return Lens(
        np.asarray(k, np.float64),
        np.asarray(dist, np.float64).reshape(-1),
        size,
        float(rms),
        len(img),
    )


def lens_to_dict(lens: Lens) -> dict[str, Any]:
    """The lens as a JSON-ready dict."""
    return {
        "format": LENS_FORMAT,
        "version": 1,
        "image_size": list(lens.image_size),
        "camera_matrix": lens.camera_matrix.tolist(),
        "dist_coeffs": lens.dist_coeffs.tolist(),
        "rms_px": lens.rms_px,
        "views": lens.views,
    }


def lens_from_dict(data: Any) -> Lens:
    """Inverse of ``lens_to_dict``.

    Raises:
        CalibrationError: not a lens file or malformed.
    """
    if not isinstance(data, dict) or data.get("format") != LENS_FORMAT:
        raise CalibrationError(f"not a {LENS_FORMAT} file")
    try:
        k = np.array(data["camera_matrix"], np.float64)
        dist = np.array(data["dist_coeffs"], np.float64).reshape(-1)
        w, h = (int(v) for v in data["image_size"])
    except (KeyError, TypeError, ValueError) as error:
        raise CalibrationError(f"malformed lens file: {error}") from None
    if k.shape != (3, 3) or len(dist) < 4 or not np.all(np.isfinite(k)):
        raise CalibrationError("malformed lens file: need a 3x3 K and >= 4 coeffs")
    return Lens(k, dist, (w, h), float(data.get("rms_px", 0.0)),
                int(data.get("views", 0)))


def save_lens(lens: Lens, path: str | Path) -> None:
    """Write the lens as JSON (atomically)."""
    text = json.dumps(lens_to_dict(lens), indent=2) + "\n"
    write_atomic(path, text.encode("utf-8"))


def load_lens(path: str | Path) -> Lens:
    """Read a lens JSON file.

    Raises:
        CalibrationError: unreadable, not JSON or not a lens file.
    """
    return lens_from_dict(read_json(path))
