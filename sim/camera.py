"""Pinhole cameras with lens distortion looking at the table: OpenCV conventions.

World frame: the table frame of the contracts (millimetres, origin at the blue spot,
+x to the top cushion, +y to the left side cushion seen from baulk) with +z up; the
cloth is the plane z = 0 and a ball's centre lies at z = ball radius.

Camera frame (OpenCV): +x right in the image, +y down, +z forward along the optical
axis. A world point X maps to the camera frame as ``R @ X + t`` and then through
``K`` and the distortion coefficients ``dist`` (k1, k2, p1, p2, k3) exactly as
``cv2.projectPoints`` does; pixel (0, 0) is the centre of the top-left pixel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.table import OFFICIAL, TableSpec

IMAGE_SIZE = (1920, 1080)
"""Default image size (width, height) in pixels: 1080p."""


def _readonly(a: Any, shape: tuple[int, ...]) -> np.ndarray:
    arr = np.array(a, dtype=np.float64).reshape(shape)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class Camera:
    """A calibrated camera: intrinsics, lens distortion and pose.

    Attributes:
        K: (3, 3) float64 intrinsic matrix, pixels.
        dist: (5,) float64 distortion coefficients (k1, k2, p1, p2, k3), OpenCV model.
        R: (3, 3) float64 rotation, world (table frame, mm) to camera frame.
        t: (3,) float64 translation, mm: X_cam = R @ X_world + t.
        width: Image width in pixels.
        height: Image height in pixels.
        kind: ``"overhead"`` or ``"broadcast"`` (informative only).
    """

    K: np.ndarray
    dist: np.ndarray
    R: np.ndarray
    t: np.ndarray
    width: int = IMAGE_SIZE[0]
    height: int = IMAGE_SIZE[1]
    kind: str = "custom"
    _rvec: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "K", _readonly(self.K, (3, 3)))
        object.__setattr__(self, "dist", _readonly(self.dist, (5,)))
        object.__setattr__(self, "R", _readonly(self.R, (3, 3)))
        object.__setattr__(self, "t", _readonly(self.t, (3,)))
        rvec, _ = cv2.Rodrigues(np.ascontiguousarray(self.R))
        object.__setattr__(self, "_rvec", _readonly(rvec, (3,)))

    @property
    def rvec(self) -> np.ndarray:
        """(3,) Rodrigues rotation vector of ``R`` (for OpenCV calls)."""
        return self._rvec

    @property
    def size(self) -> tuple[int, int]:
        """Image size (width, height) in pixels."""
        return (self.width, self.height)

    @property
    def center(self) -> np.ndarray:
        """(3,) camera centre in the world (table frame, mm)."""
        return -self.R.T @ self.t

    def to_camera(self, points_xyz_mm: np.ndarray) -> np.ndarray:
        """World points (N, 3) mm to camera-frame points (N, 3) mm."""
        p = np.asarray(points_xyz_mm, dtype=np.float64).reshape(-1, 3)
        return p @ self.R.T + self.t

    def depth(self, points_xyz_mm: np.ndarray) -> np.ndarray:
        """(N,) distance along the optical axis (camera z) of world points, mm."""
        return self.to_camera(points_xyz_mm)[:, 2]

    def project(self, points_xyz_mm: np.ndarray) -> np.ndarray:
        """Project world points to pixels, lens distortion included.

        Args:
            points_xyz_mm: (N, 3) or (3,) float, table frame, mm.

        Returns:
            (N, 2) float64 pixel coordinates (x right, y down), as cv2.projectPoints.
        """
        p = np.ascontiguousarray(points_xyz_mm, dtype=np.float64).reshape(-1, 3)
        if len(p) == 0:
            return np.zeros((0, 2))
        px, _ = cv2.projectPoints(p, self.rvec, self.t, self.K, self.dist)
        return px.reshape(-1, 2)

    def project_cloth(self, points_xy_mm: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Project points of the plane z = ``z_mm`` (N, 2) mm to (N, 2) pixels."""
        xy = np.asarray(points_xy_mm, dtype=np.float64).reshape(-1, 2)
        xyz = np.column_stack([xy, np.full(len(xy), z_mm)])
        return self.project(xyz)

    def ball_radius_px(self, points_xyz_mm: np.ndarray, radius_mm: float) -> np.ndarray:
        """(N,) approximate image radius of spheres at world points, pixels.

        Uses the focal length and the distance to the camera centre (sphere
        silhouettes are ellipses; at ball sizes the difference is well under 1 px).
        """
        p = np.asarray(points_xyz_mm, dtype=np.float64).reshape(-1, 3)
        dist = np.linalg.norm(p - self.center, axis=1)
        f = math.sqrt(self.K[0, 0] * self.K[1, 1])
        return f * radius_mm / np.maximum(dist, 1e-9)

    def homography_cloth(self, z_mm: float = 0.0) -> np.ndarray:
        """Homography from the plane z = ``z_mm`` (table mm) to undistorted pixels.

        Maps homogeneous (x, y, 1) in mm to pixel coordinates of an ideal pinhole
        image. With non-zero ``dist`` the real image is distorted: undistort pixels
        first (``undistort_px``) or build the image with ``cv2.undistort``.

        Returns:
            (3, 3) float64, normalised so that H[2, 2] == 1.
        """
        r1, r2 = self.R[:, 0], self.R[:, 1]
        t = self.t + z_mm * self.R[:, 2]
        h = self.K @ np.column_stack([r1, r2, t])
        return h / h[2, 2]

    def homography_cloth_inv(self, z_mm: float = 0.0) -> np.ndarray:
        """Inverse of ``homography_cloth``: undistorted pixels to table mm on z."""
        h = np.linalg.inv(self.homography_cloth(z_mm))
        return h / h[2, 2]

    def undistort_px(self, px: np.ndarray) -> np.ndarray:
        """Distorted (real image) pixels (N, 2) to ideal pinhole pixels (N, 2)."""
        p = np.asarray(px, dtype=np.float64).reshape(-1, 1, 2)
        if len(p) == 0:
            return np.zeros((0, 2))
        out = cv2.undistortPoints(p, self.K, self.dist, P=self.K)
        return out.reshape(-1, 2)

    def pixel_to_cloth(self, px: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Image pixels (N, 2), distortion included, to table mm (N, 2) on z."""
        u = self.undistort_px(px)
        h = self.homography_cloth_inv(z_mm)
        q = np.column_stack([u, np.ones(len(u))]) @ h.T
        return q[:, :2] / q[:, 2:3]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description (the calibration truth)."""
        return {
            "kind": self.kind,
            "width": self.width,
            "height": self.height,
            "K": self.K.tolist(),
            "dist": self.dist.tolist(),
            "R": self.R.tolist(),
            "t": self.t.tolist(),
            "rvec": self.rvec.tolist(),
            "center_mm": self.center.tolist(),
            "homography_cloth": self.homography_cloth().tolist(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Camera:
        """Inverse of ``to_dict``."""
        return cls(
            K=np.array(d["K"]),
            dist=np.array(d["dist"]),
            R=np.array(d["R"]),
            t=np.array(d["t"]),
            width=int(d["width"]),
            height=int(d["height"]),
            kind=str(d.get("kind", "custom")),
        )

    def key(self) -> bytes:
        """Bytes identifying this camera by value (for caches)."""
        parts = [self.K, self.dist, self.R, self.t]
        extra = np.array([self.width, self.height], dtype=np.float64)
        return b"".join(p.tobytes() for p in [*parts, extra]) + self.kind.encode()


def look_at(
    eye: np.ndarray, target: np.ndarray, up: np.ndarray, roll_deg: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Pose of a camera at ``eye`` looking at ``target``.

    Args:
        eye: (3,) camera centre, world mm.
        target: (3,) point on the optical axis, world mm.
        up: (3,) world direction that should appear up in the image.
        roll_deg: Extra rotation about the optical axis, degrees.

    Returns:
        (R, t): world-to-camera rotation (3, 3) and translation (3,) mm.
    """
    eye = np.asarray(eye, dtype=np.float64)
    z = np.asarray(target, dtype=np.float64) - eye
    z /= np.linalg.norm(z)
    x = np.cross(z, np.asarray(up, dtype=np.float64))
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    r = np.stack([x, y, z])
    if roll_deg:
        c, s = math.cos(math.radians(roll_deg)), math.sin(math.radians(roll_deg))
        r = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]) @ r
    return r, -r @ eye


def _fit_focal(
    r: np.ndarray,
    t: np.ndarray,
    points: np.ndarray,
    size: tuple[int, int],
    fill: float,
    principal: tuple[float, float],
) -> float:
    """Focal length (px) at which ``points`` span ``fill`` of the image, centred."""
    pc = points @ r.T + t
    xn, yn = pc[:, 0] / pc[:, 2], pc[:, 1] / pc[:, 2]
    cx, cy = principal
    w, h = size
    fx = fill * min(cx, w - cx) / np.max(np.abs(xn))
    fy = fill * min(cy, h - cy) / np.max(np.abs(yn))
    return float(min(fx, fy))


def _outline(table: TableSpec, margin_mm: float) -> np.ndarray:
    hl, hw = table.half_length + margin_mm, table.half_width + margin_mm
    return np.array([[hl, hw, 0], [hl, -hw, 0], [-hl, hw, 0], [-hl, -hw, 0]], float)


def overhead_camera(
    rng: np.random.Generator,
    table: TableSpec = OFFICIAL,
    size: tuple[int, int] = IMAGE_SIZE,
) -> Camera:
    """A club camera above the table looking down, the table's length across the image.

    Random: height 3.0-4.5 m, tilt up to 2 degrees, roll up to 1.5 degrees, offset of
    up to 60 mm, baulk on the image left or right, coverage of the frame, principal
    point and a mild barrel distortion (a wide lens).
    """
    height = rng.uniform(3000.0, 4500.0)
    eye = np.array([rng.uniform(-60, 60), rng.uniform(-60, 60), height])
    tilt = np.radians(rng.uniform(0.0, 2.0))
    azim = rng.uniform(0, 2 * np.pi)
    target = np.array(
        [
            eye[0] + height * math.tan(tilt) * math.cos(azim),
            eye[1] + height * math.tan(tilt) * math.sin(azim),
            0.0,
        ]
    )
    # Baulk on the image right (as the real Eurosport frame) or left: image "up" is
    # the world -y (right side cushion) or +y.
    up = np.array([0.0, -1.0, 0.0]) if rng.random() < 0.5 else np.array([0.0, 1.0, 0])
    r, t = look_at(eye, target, up, roll_deg=rng.uniform(-1.5, 1.5))
    w, h = size
    principal = (w / 2 + rng.uniform(-8, 8), h / 2 + rng.uniform(-8, 8))
    rail = 200.0  # cushion + wooden rail around the playing area, mm
    f = _fit_focal(r, t, _outline(table, rail), size, rng.uniform(0.9, 0.98), principal)
    k = np.array([[f, 0, principal[0]], [0, f, principal[1]], [0, 0, 1.0]])
    dist = np.array([rng.uniform(-0.08, 0.0), rng.uniform(0.0, 0.03), 0.0, 0.0, 0.0])
    return Camera(K=k, dist=dist, R=r, t=t, width=w, height=h, kind="overhead")


def broadcast_camera(
    rng: np.random.Generator,
    table: TableSpec = OFFICIAL,
    size: tuple[int, int] = IMAGE_SIZE,
) -> Camera:
    """The main TV camera behind the baulk cushion, elevated, looking along the table.

    The baulk end is near (image bottom), the top cushion far (image top), the left
    side cushion (+y) on the image left. Random: distance behind the baulk cushion
    2.5-6 m, height 1.8-3.2 m above the cloth, aim, roll, coverage and a very mild
    distortion (a long lens).
    """
    back = rng.uniform(2500.0, 6000.0)
    height = rng.uniform(1800.0, 3200.0)
    eye = np.array([-table.half_length - back, rng.uniform(-80, 80), height])
    target = np.array(
        [rng.uniform(-0.15, 0.05) * table.half_length, rng.uniform(-40, 40), 0.0]
    )
    r, t = look_at(eye, target, np.array([0.0, 0.0, 1.0]), rng.uniform(-1.0, 1.0))
    w, h = size
    principal = (w / 2 + rng.uniform(-5, 5), h / 2 + rng.uniform(-5, 5))
    f = _fit_focal(
        r, t, _outline(table, 180.0), size, rng.uniform(0.85, 0.95), principal
    )
    k = np.array([[f, 0, principal[0]], [0, f, principal[1]], [0, 0, 1.0]])
    dist = np.array([rng.uniform(-0.03, 0.01), 0.0, 0.0, 0.0, 0.0])
    return Camera(K=k, dist=dist, R=r, t=t, width=w, height=h, kind="broadcast")


def make_camera(
    kind: str,
    rng: np.random.Generator,
    table: TableSpec = OFFICIAL,
    size: tuple[int, int] = IMAGE_SIZE,
) -> Camera:
    """``overhead_camera`` or ``broadcast_camera`` by name."""
    if kind == "overhead":
        return overhead_camera(rng, table, size)
    if kind == "broadcast":
        return broadcast_camera(rng, table, size)
    raise ValueError(f"unknown camera kind {kind!r} (known: overhead, broadcast)")
