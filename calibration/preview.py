"""Draw the calibrated table back onto a frame, to check a calibration by eye."""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from calibration.mapping import Calibration
from calibration.table import CUSHION_NOSE_HEIGHT_MM

SPOT_COLOURS_BGR = {
    "yellow": (0, 255, 255),
    "green": (0, 160, 0),
    "brown": (30, 70, 140),
    "blue": (255, 80, 0),
    "pink": (180, 120, 255),
    "black": (40, 40, 40),
}


def _polyline(
    img: np.ndarray,
    cal: Calibration,
    pts_mm: np.ndarray,
    colour: tuple[int, int, int],
    z_mm: float = 0.0,
    closed: bool = False,
) -> None:
    """Draw a table-frame polyline (mm) on ``img`` in place."""
    px = cal.table_to_image(pts_mm, z_mm=z_mm)
    if not np.all(np.isfinite(px)):
        return
    cv2.polylines(
        img, [np.round(px * 16).astype(np.int32)], closed, colour, 2, cv2.LINE_AA, 4
    )


def draw_preview(image: np.ndarray, cal: Calibration) -> np.ndarray:
    """A copy of ``image`` (BGR) with the cushion noses, baulk line, D, spots and
    pockets of the calibrated table drawn on it."""
    out = image.copy()
    spec = cal.spec
    hl, hw = spec.half_length, spec.half_width
    nose_z = CUSHION_NOSE_HEIGHT_MM if cal.pose is not None else 0.0
    t = np.linspace(0, 1, 40)[:, None]
    corners = np.array([(-hl, hw), (-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)])
    edge = np.vstack(
        [a + t * (b - a) for a, b in itertools.pairwise(corners)]
    )
    _polyline(out, cal, edge, (255, 255, 0), z_mm=nose_z, closed=True)
    bx, r = spec.baulk_line_x, spec.d_radius_mm
    _polyline(out, cal, np.array([(bx, -hw), (bx, hw)]), (255, 255, 255))
    ang = np.linspace(math.pi / 2, 3 * math.pi / 2, 60)
    _polyline(
        out,
        cal,
        np.column_stack([bx + r * np.cos(ang), r * np.sin(ang)]),
        (255, 255, 255),
    )
    for name, (x, y) in spec.spots.items():
        c = cal.table_to_image(np.array([[x, y]]))[0]
        if np.all(np.isfinite(c)):
            centre = tuple(int(v) for v in np.round(c))
            cv2.drawMarker(out, centre, SPOT_COLOURS_BGR[name], cv2.MARKER_CROSS, 14, 2)
    for pocket, (x, y) in spec.pockets.items():
        mouth = spec.pocket_mouth(pocket) / 2
        circle = np.column_stack(
            [x + mouth * np.cos(ang * 2), y + mouth * np.sin(ang * 2)]
        )
        _polyline(out, cal, circle, (0, 0, 255), z_mm=nose_z, closed=True)
    return out
