"""The camera-to-table mapping: homographies, camera pose, calibration files.

Frames and units used throughout:

* image: pixels, ``(u, v)`` with u to the right and v down, origin at the top-left
  pixel's top-left corner of the (distorted, as captured) frame;
* table: millimetres, the table frame of ``shared/docs/contracts.md`` (origin at the
  blue spot, +x to the top cushion, +y to the left side cushion seen from baulk, +z
  up out of the cloth). The cloth is the plane z = 0; ball centres lie in z = 26.25 mm
  and the cushion noses in z = ``CUSHION_NOSE_HEIGHT_MM``.

Arrays of points are ``(N, 2)`` float64 numpy arrays.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from calibration.table import TableSpec, table_by_name

if TYPE_CHECKING:
    from calibration.lens import Lens

FORMAT = "baulk-calibration"
VERSION = 1
"""Version of the calibration file written by ``save_calibration``."""


class CalibrationError(ValueError):
    """A calibration could not be made or read; the message says why."""


def as_points(points: Any, name: str = "points") -> np.ndarray:
    """``points`` as an ``(N, 2)`` float64 array (a single ``(2,)`` point becomes N=1).

    Raises:
        CalibrationError: not a finite (N, 2) array.
    """
    arr = np.asarray(points, dtype=np.float64)
    if arr.ndim == 1 and arr.shape[0] == 2:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise CalibrationError(f"{name}: expected shape (N, 2), got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise CalibrationError(f"{name}: not all finite")
    return arr


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map ``(N, 2)`` points through the 3x3 homography ``h`` (NaN past infinity)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    homog = np.hstack([pts, np.ones((len(pts), 1))]) @ np.asarray(h, np.float64).T
    w = homog[:, 2:3]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = homog[:, :2] / w
    out[np.abs(w[:, 0]) < 1e-12] = np.nan
    return out


@dataclass(frozen=True)
class CameraPose:
    """Pinhole camera: intrinsics and the table-to-camera rigid transform.

    A table point X (mm, table frame, z up) is seen at ``K (R X + t)`` (before lens
    distortion).

    Attributes:
        camera_matrix: (3, 3) float64 intrinsics K in pixels (fx, fy, cx, cy).
        rotation: (3, 3) float64 rotation R, table frame to camera frame.
        translation_mm: (3,) float64 translation t in mm, camera frame.
        focal_source: ``"homography"`` (estimated from the table's perspective),
            ``"default"`` (a guess: the view was too close to overhead to tell) or
            ``"given"`` (from a lens calibration).
    """

    camera_matrix: np.ndarray
    rotation: np.ndarray
    translation_mm: np.ndarray
    focal_source: str = "homography"

    def __post_init__(self) -> None:
        k = np.array(self.camera_matrix, dtype=np.float64)
        r = np.array(self.rotation, dtype=np.float64)
        t = np.array(self.translation_mm, dtype=np.float64).reshape(-1)
        if k.shape != (3, 3) or r.shape != (3, 3) or t.shape != (3,):
            raise CalibrationError("camera pose: need K (3,3), R (3,3), t (3,)")
        if not (np.all(np.isfinite(k)) and np.all(np.isfinite(r))):
            raise CalibrationError("camera pose: not finite")
        if abs(np.linalg.det(r) - 1.0) > 1e-6:
            raise CalibrationError("camera pose: R is not a rotation")
        for name, value in (("camera_matrix", k), ("rotation", r)):
            value.setflags(write=False)
            object.__setattr__(self, name, value)
        t.setflags(write=False)
        object.__setattr__(self, "translation_mm", t)

    @property
    def centre_mm(self) -> np.ndarray:
        """The camera's optical centre in the table frame, mm, shape (3,)."""
        return -self.rotation.T @ self.translation_mm

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down, degrees."""
        axis = self.rotation[2]  # optical axis in the table frame
        return math.degrees(math.acos(min(1.0, max(-1.0, -axis[2]))))

    def plane_homography(self, z_mm: float) -> np.ndarray:
        """3x3 homography from table (x, y) mm on the plane z = ``z_mm`` to pixels."""
        r, t = self.rotation, self.translation_mm
        m = np.column_stack([r[:, 0], r[:, 1], r[:, 2] * z_mm + t])
        return self.camera_matrix @ m

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Project ``(N, 3)`` table points (mm) to ``(N, 2)`` pixels (undistorted)."""
        cam = np.asarray(points_mm, np.float64) @ self.rotation.T + self.translation_mm
        pix = cam @ self.camera_matrix.T
        return pix[:, :2] / pix[:, 2:3]


def default_focal_px(image_size: tuple[int, int]) -> float:
    """Focal length guess (px) when the view cannot tell: a ~56 degree wide lens."""
    return 0.95 * float(max(image_size))


def estimate_focal(h_t2i: np.ndarray, image_size: tuple[int, int]) -> float | None:
    """Focal length (px) from a table-to-image homography, or None when ill-posed.

    Assumes square pixels, no skew and the principal point at the image centre; uses
    the two constraints that the homography's first two columns, back-projected, are
    orthogonal and of equal length (Zhang). Near-overhead views give no estimate.
    """
    w, h = image_size
    t = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], dtype=np.float64)
    s = np.diag([1000.0, 1000.0, 1.0])  # table metres, better conditioned
    hh = t @ h_t2i @ s
    hh = hh / np.linalg.norm(hh)
    h1, h2 = hh[:, 0], hh[:, 1]
    a = np.array(
        [
            h1[0] * h2[0] + h1[1] * h2[1],
            h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2,
        ]
    )
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(a @ a)
    if denom < 1e-18:
        return None
    inv_f2 = -float(a @ b) / denom
    if inv_f2 <= 0:
        return None
    f = 1.0 / math.sqrt(inv_f2)
    # The perspective terms must be large enough to carry information: the
    # vanishing of the table's lines must lie within a few image widths.
    persp = (
        math.hypot(h1[2], h2[2])
        * f
        / max(math.hypot(h1[0], h1[1]), math.hypot(h2[0], h2[1]), 1e-12)
    )
    if persp < 0.35 or not (0.3 * max(w, h) < f < 20 * max(w, h)):
        return None
    return f


def pose_from_homography(
    h_t2i: np.ndarray,
    image_size: tuple[int, int],
    z_mm: float = 0.0,
    focal_px: float | None = None,
    camera_matrix: np.ndarray | None = None,
) -> CameraPose:
    """Camera pose from the homography of the table plane z = ``z_mm`` to pixels.

    Args:
        h_t2i: 3x3 homography, table mm (plane z = z_mm) to undistorted pixels.
        image_size: (width, height) in pixels.
        z_mm: Height of the plane the homography belongs to.
        focal_px: Focal length to use; estimated (or guessed) when None.
        camera_matrix: Full intrinsics (overrides ``focal_px``).

    Raises:
        CalibrationError: the mapping puts the camera under the table (mirrored).
    """
    w, h = image_size
    source = "given"
    if camera_matrix is None:
        if focal_px is None:
            focal_px = estimate_focal(h_t2i, image_size)
            source = "homography"
            if focal_px is None:
                focal_px = default_focal_px(image_size)
                source = "default"
        k = np.array([[focal_px, 0, w / 2], [0, focal_px, h / 2], [0, 0, 1.0]])
    else:
        k = np.asarray(camera_matrix, np.float64)
    m = np.linalg.solve(k, np.asarray(h_t2i, np.float64))
    lam = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    m = m * lam
    if m[2, 2] < 0:  # the table's centre must be in front of the camera
        m = -m
    r12 = m[:, :2]
    r3 = np.cross(r12[:, 0], r12[:, 1])
    u, _, vt = np.linalg.svd(np.column_stack([r12, r3]))
    r = u @ vt
    if np.linalg.det(r) < 0:
        raise CalibrationError(
            "mapping is mirrored: the camera would be under the table"
        )
    t = m[:, 2] - r[:, 2] * z_mm
    pose = CameraPose(k, r, t, focal_source=source)
    if pose.centre_mm[2] <= 0:
        raise CalibrationError(
            "mapping is mirrored: the camera would be under the table"
        )
    return pose


@dataclass(frozen=True)
class Calibration:
    """A camera-to-table calibration for one fixed camera.

    Attributes:
        image_size: (width, height) of the frames in pixels.
        table: Table type name (a key of ``calibration.table.TABLES``).
        homography: (3, 3) float64, undistorted image pixels to table-frame mm on the
            cloth plane (z = 0), normalised so that ``homography[2, 2] == 1``.
        method: How it was made: ``"points"`` or ``"auto"``.
        residuals_mm: (N,) float64 reprojection error of each fitting point in mm.
        residual_names: N names of those points (table point names or ``"p<i>"``).
        pose: Camera intrinsics and pose when estimated (needed for planes above the
            cloth), else None.
        dist_coeffs: OpenCV lens distortion coefficients (k1, k2, p1, p2[, k3...]) for
            ``pose.camera_matrix``, applied to points; None for no distortion.
        notes: Free-form remarks (e.g. how the table was oriented).
    """

    image_size: tuple[int, int]
    table: str
    homography: np.ndarray
    method: str = "points"
    residuals_mm: np.ndarray = field(default_factory=lambda: np.zeros(0))
    residual_names: tuple[str, ...] = ()
    pose: CameraPose | None = None
    dist_coeffs: np.ndarray | None = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        w, h = (int(v) for v in self.image_size)
        if w <= 0 or h <= 0:
            raise CalibrationError(
                f"image size must be positive, got {self.image_size}"
            )
        object.__setattr__(self, "image_size", (w, h))
        table_by_name(self.table)
        hom = np.array(self.homography, dtype=np.float64)
        if hom.shape != (3, 3) or not np.all(np.isfinite(hom)):
            raise CalibrationError("homography must be a finite 3x3 matrix")
        if abs(hom[2, 2]) < 1e-15 or abs(np.linalg.det(hom)) < 1e-300:
            raise CalibrationError("homography is singular")
        hom = hom / hom[2, 2]
        hom.setflags(write=False)
        object.__setattr__(self, "homography", hom)
        res = np.array(self.residuals_mm, dtype=np.float64).reshape(-1)
        res.setflags(write=False)
        object.__setattr__(self, "residuals_mm", res)
        names = tuple(self.residual_names) or tuple(f"p{i}" for i in range(len(res)))
        if len(names) != len(res):
            raise CalibrationError("residual_names and residuals_mm differ in length")
        object.__setattr__(self, "residual_names", names)
        if self.dist_coeffs is not None:
            if self.pose is None:
                raise CalibrationError("lens distortion needs the camera intrinsics")
            dist = np.array(self.dist_coeffs, dtype=np.float64).reshape(-1)
            dist.setflags(write=False)
            object.__setattr__(self, "dist_coeffs", dist)
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "_planes", {})  # see _planes_at

    @property
    def spec(self) -> TableSpec:
        """The table's geometry."""
        return table_by_name(self.table)

    @property
    def table_to_image_h(self) -> np.ndarray:
        """(3, 3) homography: table mm on the cloth plane to undistorted pixels."""
        return self._planes_at(0.0)[1]

    def undistort(self, points_px: np.ndarray) -> np.ndarray:
        """Remove lens distortion from ``(N, 2)`` pixel points (identity without)."""
        pts = as_points(points_px, "points_px")
        if self.dist_coeffs is None or self.pose is None or len(pts) == 0:
            return pts
        k = self.pose.camera_matrix
        out = cv2.undistortPoints(pts.reshape(-1, 1, 2), k, self.dist_coeffs, P=k)
        return out.reshape(-1, 2).astype(np.float64)

    def distort(self, points_px: np.ndarray) -> np.ndarray:
        """Apply lens distortion to undistorted ``(N, 2)`` pixel points."""
        pts = as_points(points_px, "points_px")
        if self.dist_coeffs is None or self.pose is None or len(pts) == 0:
            return pts
        k = self.pose.camera_matrix
        norm = np.hstack([pts, np.ones((len(pts), 1))]) @ np.linalg.inv(k).T
        out, _ = cv2.projectPoints(
            norm.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k, self.dist_coeffs
        )
        return out.reshape(-1, 2)

    def plane_homography(self, z_mm: float = 0.0) -> np.ndarray:
        """3x3 homography, undistorted pixels to table (x, y) mm on plane z = z_mm.

        Raises:
            CalibrationError: z_mm != 0 and no camera pose is known.
        """
        return self._planes_at(z_mm)[0]

    def _planes_at(self, z_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """(image -> table, table -> image) homographies of plane z = z_mm, read-only,
        computed once per height (the vision pipeline maps every detection)."""
        planes: dict[float, tuple[np.ndarray, np.ndarray]]
        planes = self._planes  # type: ignore[attr-defined]
        z_mm = float(z_mm)
        if z_mm in planes:
            return planes[z_mm]
        if z_mm == 0.0:
            plane = self.homography
        elif self.pose is None:
            raise CalibrationError("no camera pose: only the cloth plane can be mapped")
        else:
            h0 = self._planes_at(0.0)[1]
            p0 = self.pose.plane_homography(0.0)
            # keep the fitted cloth mapping exactly; add the pose's height term
            scale = float(np.sum(h0 * p0) / np.sum(p0 * p0))
            hz = h0 / scale + self.pose.camera_matrix @ np.outer(
                self.pose.rotation[:, 2] * z_mm, [0.0, 0.0, 1.0]
            )
            plane = np.linalg.inv(hz)
            plane.setflags(write=False)
        inverse = np.linalg.inv(plane)
        inverse.setflags(write=False)
        if len(planes) < 16:
            planes[z_mm] = (plane, inverse)
        return plane, inverse

    def image_to_table(self, points_px: Any, z_mm: float = 0.0) -> np.ndarray:
        """Map image points to the table.

        Args:
            points_px: (N, 2) pixels in the captured (distorted) frame.
            z_mm: Height of the plane the points lie in (0 = cloth).

        Returns:
            (N, 2) float64 table-frame (x, y) in mm; NaN for points above the horizon.
        """
        pts = self.undistort(as_points(points_px, "points_px"))
        return apply_homography(self.plane_homography(z_mm), pts)

    def table_to_image(self, points_mm: Any, z_mm: float = 0.0) -> np.ndarray:
        """Map table points (mm, table frame, plane z = z_mm) to (N, 2) pixels."""
        pts = as_points(points_mm, "points_mm")
        img = apply_homography(self._planes_at(z_mm)[1], pts)
        return self.distort(img)

    def ball_centres_to_table(self, points_px: Any) -> np.ndarray:
        """Table (x, y) mm of balls whose centres' images are ``points_px`` (N, 2).

        Maps through the plane of ball centres (z = ball radius) when a camera pose
        is known, otherwise through the cloth plane (right only for overhead views).
        """
        z = self.spec.ball_radius if self.pose is not None else 0.0
        return self.image_to_table(points_px, z_mm=z)

    @property
    def rms_mm(self) -> float:
        """RMS of the fitting residuals in mm (0 when there are none)."""
        if len(self.residuals_mm) == 0:
            return 0.0
        return float(np.sqrt(np.mean(self.residuals_mm**2)))


# ---------------------------------------------------------------- point pairs


def _collinear(a: np.ndarray, b: np.ndarray, c: np.ndarray, rel: float) -> bool:
    """True when triangle abc is flatter than ``rel`` (area over longest side^2)."""
    area = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2
    longest = max(np.sum((b - a) ** 2), np.sum((c - b) ** 2), np.sum((a - c) ** 2))
    return longest == 0 or area / longest < rel


def _general_position(points: np.ndarray, rel: float = 0.01) -> bool:
    """True when some 4 of ``points`` have no 3 collinear."""
    n = len(points)
    limit = 0
    for quad in itertools.combinations(range(n), 4):
        limit += 1
        if limit > 20000:
            break
        if not any(
            _collinear(points[a], points[b], points[c], rel)
            for a, b, c in itertools.combinations(quad, 3)
        ):
            return True
    return False


def check_orientation(h_i2t: np.ndarray, spec: TableSpec) -> None:
    """Raise if the mapping folds the table or mirrors it.

    The table (its whole playing area) must lie on one side of the image's horizon
    line, and a camera above the table sees the table frame's +x, +y axes turn
    clockwise in the image (v down).

    Raises:
        CalibrationError: folded (the horizon crosses the table) or mirrored.
    """
    h_t2i = np.linalg.inv(h_i2t)
    hl, hw = spec.half_length, spec.half_width
    grid = np.array([(x, y) for x in (-hl, 0, hl) for y in (-hw, 0, hw)], np.float64)
    w = np.hstack([grid, np.ones((len(grid), 1))]) @ h_t2i[2]
    if not (np.all(w > 0) or np.all(w < 0)):
        raise CalibrationError(
            "mapping is folded: the image horizon crosses the table (points mixed up?)"
        )
    img = apply_homography(h_t2i, grid)
    # Jacobian determinant of table->image at the centre: negative when not mirrored
    c = img[4]
    jx = img[7] - c  # towards +x
    jy = img[5] - c  # towards +y
    if jx[0] * jy[1] - jx[1] * jy[0] >= 0:
        raise CalibrationError(
            "mapping is mirrored: left and right swapped (or the frame is flipped)"
        )


def fit_points(
    image_points: Any,
    table_points: Any,
    image_size: tuple[int, int],
    table: str = "official",
    names: Sequence[str] | None = None,
    ransac_mm: float = 25.0,
    focal_px: float | None = None,
    lens: Lens | None = None,
) -> Calibration:
    """Calibrate from point pairs.

    Args:
        image_points: (N, 2) pixels of known table points, N >= 4.
        table_points: (N, 2) the same points in the table frame, mm, on the cloth.
        image_size: (width, height) in pixels.
        table: Table type name.
        names: Optional N names for the residual report.
        ransac_mm: RANSAC inlier threshold, mm on the table.
        focal_px: Known focal length, else estimated or guessed.
        lens: Intrinsics and distortion from ``calibration.lens`` (rescaled to
            ``image_size`` if need be): the points are undistorted first, and the
            lens is stored in the calibration.

    Returns:
        The calibration; ``residuals_mm`` holds every point's error in mm (RANSAC
        outliers included, so a mis-clicked point shows up).

    Raises:
        CalibrationError: fewer than four points, three collinear, a point off the
            table, duplicates, inconsistent points, or a folded/mirrored mapping.
    """
    spec = table_by_name(table)
    img = as_points(image_points, "image points")
    tab = as_points(table_points, "table points")
    if len(img) != len(tab):
        raise CalibrationError(
            f"{len(img)} image points but {len(tab)} table points: they must pair up"
        )
    labels = (
        list(names) if names is not None else [f"point {i}" for i in range(len(img))]
    )
    if len(labels) != len(img):
        raise CalibrationError("names must have one entry per point")
    if len(img) < 4:
        raise CalibrationError(f"need at least 4 point pairs, got {len(img)}")
    margin = 1.0
    for label, (x, y) in zip(labels, tab, strict=True):
        if abs(x) > spec.half_length + margin or abs(y) > spec.half_width + margin:
            raise CalibrationError(
                f"{label} at ({x:.1f}, {y:.1f}) mm is off the {spec.name} table"
            )
    w, h = image_size
    for label, (u, v) in zip(labels, img, strict=True):
        if not (-0.5 * w <= u <= 1.5 * w and -0.5 * h <= v <= 1.5 * h):
            raise CalibrationError(f"{label} at ({u:.1f}, {v:.1f}) px is off the image")
    for arr, what in ((img, "image"), (tab, "table")):
        d = np.linalg.norm(arr[:, None, :] - arr[None, :, :], axis=2)
        d[np.diag_indices(len(arr))] = np.inf
        if np.min(d) < 1e-6:
            i, j = np.unravel_index(np.argmin(d), d.shape)
            raise CalibrationError(f"{labels[i]} and {labels[j]}: same {what} point")
        if not _general_position(arr):
            raise CalibrationError(
                f"three (or more) of the {what} points are collinear: need four "
                "points with no three on a line"
            )
    if lens is not None:
        if tuple(lens.image_size) != (int(w), int(h)):
            lens = lens.scaled((int(w), int(h)))
        img = lens.undistort(img)
    if len(img) == 4:
        hom = cv2.getPerspectiveTransform(
            img.astype(np.float32), tab.astype(np.float32)
        )
        inliers = np.ones(4, bool)
    else:
        hom, mask = cv2.findHomography(img, tab, cv2.RANSAC, ransac_mm)
        if hom is None:
            raise CalibrationError("no homography fits these points")
        inliers = mask.reshape(-1).astype(bool)
        if inliers.sum() < 4 or not _general_position(img[inliers]):
            raise CalibrationError("points are inconsistent: fewer than four agree")
        # least-squares polish on the inliers
        hom, _ = cv2.findHomography(img[inliers], tab[inliers], 0)
    if hom is None or not np.all(np.isfinite(hom)):
        raise CalibrationError("no homography fits these points")
    check_orientation(hom, spec)
    residuals = np.linalg.norm(apply_homography(hom, img) - tab, axis=1)
    if lens is None:
        pose = pose_from_homography(np.linalg.inv(hom), image_size, focal_px=focal_px)
        dist = None
    else:
        pose = pose_from_homography(
            np.linalg.inv(hom), image_size, camera_matrix=lens.camera_matrix
        )
        dist = np.asarray(lens.dist_coeffs, np.float64)
    n_out = int((~inliers).sum())
    notes = (f"{n_out} RANSAC outlier(s)",) if n_out else ()
    if lens is not None:
        notes = (*notes, f"lens from {lens.views} checkerboard views")
    return Calibration(
        image_size=(int(w), int(h)),
        table=spec.name,
        homography=hom,
        method="points",
        residuals_mm=residuals,
        residual_names=tuple(labels),
        pose=pose,
        dist_coeffs=dist,
        notes=notes,
    )


def parse_points(
    data: Any, table: str = "official"
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Point pairs from a points file's parsed JSON.

    Accepted forms: ``{"points": {"baulk_left": [u, v], "blue": [u, v], ...}}`` with
    names from ``TableSpec.named_points``, or ``{"points": [{"name": ..., "px": [u,
    v]}, {"table_mm": [x, y], "px": [u, v]}, ...]}``. A bare mapping or list is also
    accepted.

    Returns:
        (image (N, 2) px, table (N, 2) mm, names).

    Raises:
        CalibrationError: malformed content or unknown point names.
    """
    spec = table_by_name(table)
    known = spec.named_points
    if isinstance(data, Mapping) and "points" in data:
        data = data["points"]
    entries: list[tuple[str, Any, Any]] = []
    if isinstance(data, Mapping):
        for name, px in data.items():
            entries.append((str(name), None, px))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            if not isinstance(item, Mapping) or "px" not in item:
                raise CalibrationError(f"point {i}: need an object with 'px'")
            name = str(item.get("name", f"point {i}"))
            entries.append((name, item.get("table_mm"), item["px"]))
    else:
        raise CalibrationError("points: expected an object or a list")
    img, tab, names = [], [], []
    for name, table_mm, px in entries:
        if table_mm is None:
            if name not in known:
                raise CalibrationError(
                    f"unknown table point {name!r} (known: {', '.join(known)})"
                )
            table_mm = known[name]
        try:
            u, v = (float(c) for c in px)
            x, y = (float(c) for c in table_mm)
        except (TypeError, ValueError):
            raise CalibrationError(f"{name}: coordinates must be two numbers") from None
        img.append((u, v))
        tab.append((x, y))
        names.append(name)
    if not img:
        raise CalibrationError("no points given")
    return np.array(img, np.float64), np.array(tab, np.float64), names


# ---------------------------------------------------------------- files


def calibration_to_dict(cal: Calibration) -> dict[str, Any]:
    """The calibration as a JSON-ready dict (format version ``VERSION``)."""
    camera: dict[str, Any] | None = None
    if cal.pose is not None:
        camera = {
            "matrix": cal.pose.camera_matrix.tolist(),
            "rotation": cal.pose.rotation.tolist(),
            "translation_mm": cal.pose.translation_mm.tolist(),
            "focal_source": cal.pose.focal_source,
            "distortion": None if cal.dist_coeffs is None else cal.dist_coeffs.tolist(),
        }
    return {
        "format": FORMAT,
        "version": VERSION,
        "image_size": list(cal.image_size),
        "table": cal.table,
        "homography": cal.homography.tolist(),
        "homography_note": "undistorted image pixels -> table-frame mm, cloth plane",
        "method": cal.method,
        "residuals_mm": {
            n: round(float(r), 3)
            for n, r in zip(cal.residual_names, cal.residuals_mm, strict=True)
        },
        "camera": camera,
        "notes": list(cal.notes),
    }


def calibration_from_dict(data: Mapping[str, Any]) -> Calibration:
    """Inverse of ``calibration_to_dict``.

    Raises:
        CalibrationError: not a calibration, a newer version, or malformed.
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise CalibrationError(f"not a {FORMAT} file")
    version = data.get("version")
    if not isinstance(version, int) or version > VERSION or version < 1:
        raise CalibrationError(f"unsupported calibration version {version!r}")
    try:
        residuals = data.get("residuals_mm") or {}
        pose = None
        dist = None
        cam = data.get("camera")
        if cam:
            pose = CameraPose(
                np.array(cam["matrix"], float),
                np.array(cam["rotation"], float),
                np.array(cam["translation_mm"], float),
                focal_source=str(cam.get("focal_source", "homography")),
            )
            if cam.get("distortion") is not None:
                dist = np.array(cam["distortion"], float)
        return Calibration(
            image_size=tuple(int(v) for v in data["image_size"]),  # type: ignore[arg-type]
            table=str(data["table"]),
            homography=np.array(data["homography"], float),
            method=str(data.get("method", "points")),
            residuals_mm=np.array(list(residuals.values()), float),
            residual_names=tuple(residuals.keys()),
            pose=pose,
            dist_coeffs=dist,
            notes=tuple(data.get("notes", ())),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, CalibrationError):
            raise
        raise CalibrationError(f"malformed calibration: {error}") from None


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder + rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_calibration(cal: Calibration, path: str | Path) -> None:
    """Write the calibration as JSON (atomically)."""
    text = json.dumps(calibration_to_dict(cal), indent=2) + "\n"
    write_atomic(path, text.encode("utf-8"))


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration JSON file.

    Raises:
        CalibrationError: unreadable, not JSON, or not a calibration.
    """
    return calibration_from_dict(read_json(path))


def read_json(path: str | Path) -> Any:
    """A JSON file's content.

    Raises:
        CalibrationError: unreadable or not JSON, naming the file.
    """
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise CalibrationError(f"{path}: cannot read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise CalibrationError(f"{path}: not JSON (line {error.lineno})") from None
