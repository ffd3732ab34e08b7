"""The table as one camera sees it: where the bed is and how big balls look."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.mapping import Calibration
from calibration.table import CUSHION_NOSE_HEIGHT_MM

CUSHION_DEPTH_MM = 300.0
"""How far the occluding cushion and rail reach toward the camera from a cushion
nose (the cushion and the wooden rail behind it, generously: the band only has to
cover the hidden lower part of a ball against the nose)."""


@dataclass(frozen=True, eq=False)
class TableView:
    """Image-side geometry of a calibrated camera.

    Attributes:
        cal: The calibration (image px <-> table mm).
        roi: (x0, y0, x1, y1) int pixel box holding every ball image on the bed.
        bed_mask: (y1 - y0, x1 - x0) uint8 mask of the roi, 1 where a ball's image
            can lie on the bed (between the cushion noses, up to a ball's height).
        ball_mask: The same, and where the image of a ball in a corner pocket's
            jaws can lie, over the cushion lines there (searched for balls, not
            learned as cloth).
        occluder_mask: (y1 - y0, x1 - x0) uint8 mask of the roi, 1 where a
            cushion stands between the camera and the bed (in an oblique view, the
            near cushion hides the lower part of a ball against it): an outline
            there is hidden, not ended. All 0 looking down from over the bed.
    """

    cal: Calibration
    roi: tuple[int, int, int, int] = field(init=False)
    bed_mask: np.ndarray = field(init=False, repr=False)
    ball_mask: np.ndarray = field(init=False, repr=False)
    occluder_mask: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        spec = self.cal.spec
        w, h = self.cal.image_size
        hl, hw = spec.half_length, spec.half_width
        n = 40
        t = np.linspace(-1.0, 1.0, n)
        edge = np.concatenate(
            [
                np.column_stack([t * hl, np.full(n, hw)]),
                np.column_stack([np.full(n, hl), -t * hw]),
                np.column_stack([-t * hl, np.full(n, -hw)]),
                np.column_stack([np.full(n, -hl), t * hw]),
            ]
        )

        def lifted(points: np.ndarray) -> list[np.ndarray]:
            """Images of table ``points`` on the bed and a ball's height above
            (an oblique view sees a ball's top beyond its foot)."""
            return [self.cal.table_to_image(
                points, z_mm=z if self.cal.pose is not None else 0.0)
                for z in (0.0, spec.ball_diameter_mm)]

        polys = lifted(edge)
        # round each corner pocket, a ball in its jaws over the cushion lines
        # (seed 2592's cue ball, rattling in a near corner's jaws, was cut by
        # the end cushion's line and went unseen for its last three frames;
        # the dark opening's discs there are the detector's to tell)
        ring = np.linspace(0.0, 2.0 * np.pi, 24, endpoint=False)
        reach = 0.5 * spec.corner_mouth_mm + spec.ball_radius
        jaws = [np.concatenate(lifted(np.column_stack(
            [spec.pockets[p][0] + reach * np.cos(ring),
             spec.pockets[p][1] + reach * np.sin(ring)])))
            for p in spec.corner_falls()]
        pts = np.concatenate(polys)
        r = float(self.radius_px(pts).max()) if len(pts) else 20.0
        x0 = int(max(0, np.floor(pts[:, 0].min() - r)))
        y0 = int(max(0, np.floor(pts[:, 1].min() - r)))
        x1 = int(min(w, np.ceil(pts[:, 0].max() + r + 1)))
        y1 = int(min(h, np.ceil(pts[:, 1].max() + r + 1)))
        mask = np.zeros((max(1, y1 - y0), max(1, x1 - x0)), np.uint8)
        for poly in polys:
            p = np.round((poly - [x0, y0]) * 4).astype(np.int32)
            cv2.fillPoly(mask, [p], 1, shift=2)
        # the two outlines bound the bed's image; fill the hull between them
        hull = cv2.convexHull(np.round(pts - [x0, y0]).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1)
        balls = mask.copy()
        for disc in jaws:
            if np.isfinite(disc).all():
                hull = cv2.convexHull(np.round(disc - [x0, y0]).astype(np.int32))
                cv2.fillConvexPoly(balls, hull, 1)
        object.__setattr__(self, "roi", (x0, y0, x1, y1))
        object.__setattr__(self, "bed_mask", mask)
        object.__setattr__(self, "ball_mask", balls)
        object.__setattr__(self, "occluder_mask", self._occluders(mask.shape))

    def _occluders(self, shape: tuple[int, ...]) -> np.ndarray:
        """``occluder_mask``: for each cushion the camera stands beyond, the image
        of its top, from the nose out ``CUSHION_DEPTH_MM`` toward the camera, at
        the nose's height."""
        occ = np.zeros(shape, np.uint8)
        pose = self.cal.pose
        if pose is None:
            return occ
        spec = self.cal.spec
        lims = (spec.half_length, spec.half_width)
        centre = pose.centre_mm
        x0, y0 = self.roi[:2]
        n = 40
        for axis in (0, 1):
            for sign in (-1.0, 1.0):
                lim = lims[axis]
                if sign * float(centre[axis]) <= lim + CUSHION_DEPTH_MM:
                    continue  # the camera is not beyond this cushion
                span = lims[1 - axis] + CUSHION_DEPTH_MM
                nose = np.zeros((n, 2))
                nose[:, axis] = sign * lim
                nose[:, 1 - axis] = np.linspace(-span, span, n)
                top = nose.copy()
                top[:, axis] = sign * (lim + CUSHION_DEPTH_MM)
                quad = np.concatenate([nose, top[::-1]])
                img = self.cal.table_to_image(quad, z_mm=CUSHION_NOSE_HEIGHT_MM)
                if not np.isfinite(img).all():
                    continue
                p = np.round((img - [x0, y0]) * 4).astype(np.int32)
                cv2.fillPoly(occ, [p], 1, shift=2)
        return occ

    @property
    def ball_radius_mm(self) -> float:
        """Ball radius, mm."""
        return self.cal.spec.ball_radius

    def to_table(self, xy_px: np.ndarray) -> np.ndarray:
        """(N, 2) image ball centres to (N, 2) table mm (ball-centre plane)."""
        xy_px = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
        if len(xy_px) == 0:
            return np.zeros((0, 2))
        return self.cal.ball_centres_to_table(xy_px)

    def to_image(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N, 2) table ball centres, mm, to (N, 2) image px."""
        xy_mm = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        if len(xy_mm) == 0:
            return np.zeros((0, 2))
        z = self.ball_radius_mm if self.cal.pose is not None else 0.0
        return self.cal.table_to_image(xy_mm, z_mm=z)

    def range_mm(self, xy_mm: np.ndarray) -> np.ndarray | None:
        """(N,) distance, mm, from the camera's centre to balls centred at the
        (N, 2) table places (mm); None when the calibration has no pose."""
        pose = self.cal.pose
        if pose is None:
            return None
        xy_mm = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        xyz = np.column_stack([xy_mm, np.full(len(xy_mm), self.ball_radius_mm)])
        return np.linalg.norm(xyz - pose.centre_mm, axis=1)

    def radius_px(self, xy_px: np.ndarray) -> np.ndarray:
        """(N,) expected image radius, px, of balls centred at image points (N, 2)."""
        xy_px = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
        if len(xy_px) == 0:
            return np.zeros(0)
        rad = self.ball_radius_mm
        tab = self.to_table(xy_px)
        pose = self.cal.pose
        dist = self.range_mm(tab)
        if pose is not None and dist is not None:
            f = float(np.sqrt(pose.camera_matrix[0, 0] * pose.camera_matrix[1, 1]))
            out = f * rad / np.maximum(dist, 1e-6)
        else:
            a = self.to_image(tab)
            bx = self.to_image(tab + np.array([1.0, 0.0])) - a
            by = self.to_image(tab + np.array([0.0, 1.0])) - a
            det = np.abs(bx[:, 0] * by[:, 1] - bx[:, 1] * by[:, 0])
            out = rad * np.sqrt(det)
        return np.where(np.isfinite(out), out, 0.0)

    def down_px(self, xy_px: np.ndarray) -> np.ndarray:
        """(N, 2) image direction of "down to the cloth" at ball centres (N, 2) px.

        The length is the image length of a ball radius straight down divided by the
        ball's image radius: 0 looking straight down, near 1 looking across.
        """
        xy_px = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
        if len(xy_px) == 0 or self.cal.pose is None:
            return np.zeros((len(xy_px), 2))
        tab = self.to_table(xy_px)
        below = self.cal.table_to_image(tab, z_mm=0.0)
        r = np.maximum(self.radius_px(xy_px), 1e-6)
        out = (below - xy_px) / r[:, None]
        return np.where(np.isfinite(out), out, 0.0)

    def on_bed(self, xy_mm: np.ndarray, margin_mm: float = 0.0) -> np.ndarray:
        """(N,) bool: ball centres (N, 2) mm that fit on the bed (plus a margin)."""
        spec = self.cal.spec
        xy = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
        r = spec.ball_radius
        with np.errstate(invalid="ignore"):
            return (np.abs(xy[:, 0]) <= spec.half_length - r + margin_mm) & (
                np.abs(xy[:, 1]) <= spec.half_width - r + margin_mm
            )
