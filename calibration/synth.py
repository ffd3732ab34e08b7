"""Synthetic table frames with known truth, for tests and the evaluation benchmark.

A small stand-in renderer (OpenCV drawing through a pinhole camera): cloth bed, the
cushion faces and tops at the nose height, wooden rails, pockets, baulk line, D, the
colours on their spots and a few reds, random lighting and noise. Not the project's
renderer (``sim/``); just enough to measure calibration.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.mapping import CameraPose
from calibration.table import CUSHION_NOSE_HEIGHT_MM, TableSpec

CUSHION_WIDTH_MM = 50.0
RAIL_WIDTH_MM = 110.0


@dataclass(frozen=True)
class SynthFrame:
    """A rendered frame and its truth.

    Attributes:
        image: (H, W, 3) uint8 BGR.
        pose: The true camera (no lens distortion).
        view: ``"overhead"`` or ``"broadcast"``.
    """

    image: np.ndarray
    pose: CameraPose
    view: str


def look_at(
    centre: np.ndarray,
    target: np.ndarray,
    focal_px: float,
    size: tuple[int, int],
    roll_deg: float = 0.0,
) -> CameraPose:
    """A camera at ``centre`` (mm, table frame) looking at ``target``."""
    z = np.asarray(target, float) - np.asarray(centre, float)
    z /= np.linalg.norm(z)
    up = np.array([0.0, 0.0, 1.0])
    x = np.cross(z, up)
    if np.linalg.norm(x) < 1e-6:
        x = np.array([0.0, -1.0, 0.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    c, s = math.cos(math.radians(roll_deg)), math.sin(math.radians(roll_deg))
    x, y = c * x + s * y, -s * x + c * y
    r = np.vstack([x, y, z])
    k = np.array([[focal_px, 0, size[0] / 2], [0, focal_px, size[1] / 2], [0, 0, 1.0]])
    return CameraPose(k, r, -r @ np.asarray(centre, float))


def random_camera(
    rng: np.random.Generator, view: str, spec: TableSpec, size: tuple[int, int]
) -> CameraPose:
    """A random overhead or broadcast camera that keeps the whole table in view."""
    hl, hw = spec.half_length, spec.half_width
    w, h = size
    for _ in range(200):
        if view == "overhead":
            height = rng.uniform(3500, 7000)
            centre = np.array([rng.uniform(-150, 150), rng.uniform(-150, 150), height])
            target = np.array([rng.uniform(-100, 100), rng.uniform(-100, 100), 0.0])
            pose0 = look_at(centre, target, 1000.0, size, roll_deg=rng.choice([0, 180]))
            # table long axis along the image's width
            pose0 = look_at(
                centre,
                target,
                1000.0,
                size,
                roll_deg=float(rng.uniform(-3, 3)) + 90.0 * rng.integers(0, 2) * 2,
            )
        else:
            end = rng.choice([-1.0, 1.0])
            dist = rng.uniform(2500, 6000)
            height = rng.uniform(1800, 3500)
            centre = np.array([end * (hl + dist), rng.uniform(-400, 400), height])
            target = np.array(
                [end * rng.uniform(-300, 600), rng.uniform(-150, 150), 0.0]
            )
            pose0 = look_at(
                centre, target, 1000.0, size, roll_deg=float(rng.uniform(-3, 3))
            )
        corners = np.array(
            [
                (sx * (hl + 170), sy * (hw + 170), 0.0)
                for sx in (-1, 1)
                for sy in (-1, 1)
            ]
        )
        img = pose0.project(corners)
        if view == "overhead" and np.ptp(img[:, 1]) > np.ptp(img[:, 0]):
            continue
        span = max(np.ptp(img[:, 0]) / (0.96 * w), np.ptp(img[:, 1]) / (0.96 * h))
        focal = 1000.0 / span * rng.uniform(0.8, 1.0)
        pose = look_at(centre, target, focal, size, 0.0)
        pose = CameraPose(
            pose0.camera_matrix
            * np.array([[focal / 1000, 1, 1], [1, focal / 1000, 1], [1, 1, 1]]),
            pose0.rotation,
            pose0.translation_mm,
        )
        img = pose.project(corners)
        if (
            img[:, 0].min() > 2
            and img[:, 0].max() < w - 2
            and img[:, 1].min() > 2
            and img[:, 1].max() < h - 2
        ):
            return pose
    raise RuntimeError("no camera found")


def _poly(
    img: np.ndarray,
    pose: CameraPose,
    pts: np.ndarray,
    z: float,
    colour: tuple[float, float, float],
) -> None:
    """Fill a table-frame polygon (mm, plane z) on ``img``."""
    p3 = np.column_stack([pts, np.full(len(pts), z)])
    px = pose.project(p3)
    cv2.fillPoly(img, [np.round(px * 8).astype(np.int32)], colour, cv2.LINE_AA, 3)


def _quad3(
    img: np.ndarray,
    pose: CameraPose,
    pts3: np.ndarray,
    colour: tuple[float, float, float],
) -> None:
    px = pose.project(pts3)
    cv2.fillPoly(img, [np.round(px * 8).astype(np.int32)], colour, cv2.LINE_AA, 3)


def render(
    spec: TableSpec,
    pose: CameraPose,
    size: tuple[int, int],
    rng: np.random.Generator,
    view: str = "overhead",
) -> SynthFrame:
    """Render one frame of the table seen by ``pose`` with random light and noise."""
    w, h = size
    hl, hw = spec.half_length, spec.half_width
    nz = CUSHION_NOSE_HEIGHT_MM
    bg = rng.uniform(20, 90, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = bg
    hue = rng.uniform(-12, 12)
    cloth_hsv = np.uint8([[[60 + hue, rng.uniform(170, 250), rng.uniform(120, 220)]]])
    cloth = cv2.cvtColor(cloth_hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float)
    top = cloth * rng.uniform(0.75, 1.1)
    face = cloth * rng.uniform(0.3, 0.55)
    wood = rng.uniform(15, 70, 3) * np.array([0.5, 0.6, 1.2])
    cw, rw = CUSHION_WIDTH_MM, RAIL_WIDTH_MM
    o = hl + cw + rw
    ow = hw + cw + rw
    _poly(
        img, pose, np.array([(-o, -ow), (o, -ow), (o, ow), (-o, ow)]), nz, tuple(wood)
    )
    _poly(
        img,
        pose,
        np.array([(-hl, -hw), (hl, -hw), (hl, hw), (-hl, hw)]),
        0.0,
        tuple(cloth),
    )
    # cushion faces: from the nose (z = nz) down to the bed 12 mm further out
    cam = pose.centre_mm
    for (ax, ay), (bx, by), (nx, ny) in (
        ((-hl, -hw), (-hl, hw), (-1, 0)),
        ((hl, -hw), (hl, hw), (1, 0)),
        ((-hl, -hw), (hl, -hw), (0, -1)),
        ((-hl, hw), (hl, hw), (0, 1)),
    ):
        facing = (cam[0] - ax) * -nx + (cam[1] - ay) * -ny > 0
        if facing:
            q = np.array(
                [
                    (ax, ay, nz),
                    (bx, by, nz),
                    (bx + 12 * nx, by + 12 * ny, 0.0),
                    (ax + 12 * nx, ay + 12 * ny, 0.0),
                ]
            )
            _quad3(img, pose, q, tuple(face))
    # cushion tops (z = nz)
    c = cw
    for ring in (
        [(-hl - c, -hw - c), (hl + c, -hw - c), (hl, -hw), (-hl, -hw)],
        [(-hl - c, hw + c), (hl + c, hw + c), (hl, hw), (-hl, hw)],
        [(-hl - c, -hw - c), (-hl, -hw), (-hl, hw), (-hl - c, hw + c)],
        [(hl + c, -hw - c), (hl, -hw), (hl, hw), (hl + c, hw + c)],
    ):
        _poly(img, pose, np.array(ring), nz, tuple(top))
    # markings on the cloth
    line = np.array([235.0, 235.0, 235.0]) * rng.uniform(0.7, 1.0)
    bxl, r = spec.baulk_line_x, spec.d_radius_mm
    lw = 3.0
    _poly(
        img,
        pose,
        np.array([(bxl - lw, -hw), (bxl + lw, -hw), (bxl + lw, hw), (bxl - lw, hw)]),
        0.0,
        tuple(line),
    )
    ang = np.linspace(math.pi / 2, 3 * math.pi / 2, 80)
    arc = np.concatenate(
        [
            np.column_stack([bxl + (r + lw) * np.cos(ang), (r + lw) * np.sin(ang)]),
            np.column_stack(
                [bxl + (r - lw) * np.cos(ang[::-1]), (r - lw) * np.sin(ang[::-1])]
            ),
        ]
    )
    _poly(img, pose, arc, 0.0, tuple(line))
    # pockets: dark discs at the nose plane
    circ = np.column_stack(
        [
            np.cos(np.linspace(0, 2 * math.pi, 40)),
            np.sin(np.linspace(0, 2 * math.pi, 40)),
        ]
    )
    for pocket, (px, py) in spec.pockets.items():
        rad = spec.pocket_mouth(pocket) / 2
        cx = px + np.sign(px) * (rad * 0.6 if abs(px) > 1 else 0)
        cy = py + np.sign(py) * rad * 0.6
        _poly(img, pose, np.array([cx, cy]) + rad * circ, nz, (10, 10, 10))
    # balls: colours on spots, some reds
    colours = {
        "yellow": (0, 220, 240),
        "green": (40, 110, 0),
        "brown": (20, 60, 120),
        "blue": (200, 90, 0),
        "pink": (170, 150, 250),
        "black": (15, 15, 15),
    }
    br = spec.ball_radius
    balls = [(spec.spots[n], colours[n]) for n in colours]
    for _ in range(int(rng.integers(0, 10))):
        balls.append(
            (
                (rng.uniform(-hl + br, hl - br), rng.uniform(-hw + br, hw - br)),
                (20, 20, 200),
            )
        )
    balls.append(
        (
            (rng.uniform(-hl + br, hl - br), rng.uniform(-hw + br, hw - br)),
            (240, 240, 240),
        )
    )
    for (x, y), col in balls:
        cpx = pose.project(np.array([[x, y, br]]))[0]
        edge = pose.project(np.array([[x, y + br, br]]))[0]
        rad = float(np.hypot(*(edge - cpx)))
        cv2.circle(
            img,
            tuple(int(v) for v in np.round(cpx * 8)),
            int(rad * 8),
            col,
            -1,
            cv2.LINE_AA,
            3,
        )
    # light: a smooth gradient, then noise
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gain = (
        1
        + rng.uniform(-0.2, 0.2) * (xx / w - 0.5)
        + rng.uniform(-0.2, 0.2) * (yy / h - 0.5)
    )
    img *= gain[..., None] * rng.uniform(0.8, 1.15)
    img += rng.normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    out = cv2.GaussianBlur(out, (3, 3), rng.uniform(0.3, 1.0))
    return SynthFrame(out, pose, view)


def random_frame(
    seed: int, view: str, spec: TableSpec, size: tuple[int, int] = (1920, 1080)
) -> SynthFrame:
    """A reproducible random frame (``seed``) of ``view`` (overhead/broadcast)."""
    rng = np.random.default_rng(seed)
    pose = random_camera(rng, view, spec, size)
    return render(spec, pose, size, rng, view)
