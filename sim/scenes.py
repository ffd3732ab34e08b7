"""Synthetic scenes for training, tests and evaluation (uses ``sim/``, not pooltool).

Random ball layouts (the pack, touching clusters, balls on their spots, balls against
cushions), simple occluders (a cue, a hand) implementing ``sim.render.Occluder``, the
exact calibration of a ``sim.camera.Camera``, and short clips with straight-line
decelerating motion and pots, with their truth.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.mapping import Calibration, CameraPose
from calibration.table import OFFICIAL, TableSpec
from sim.camera import Camera
from sim.render import Appearance, Balls, render_frame_info

COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")


def truth_calibration(camera: Camera, table: str = "official") -> Calibration:
    """The exact ``Calibration`` of a simulated camera (lens distortion included)."""
    pose = CameraPose(
        np.array(camera.K), np.array(camera.R), np.array(camera.t), "given"
    )
    return Calibration(
        image_size=camera.size,
        table=table,
        homography=camera.homography_cloth_inv(0.0),
        method="truth",
        pose=pose,
        dist_coeffs=np.array(camera.dist),
    )


def pack_positions(spec: TableSpec = OFFICIAL, gap_mm: float = 0.05) -> np.ndarray:
    """(15, 2) mm centres of the reds racked behind the pink, touching."""
    d = spec.ball_diameter_mm + gap_mm
    apex = spec.spots["pink"][0] + d
    pts = [
        (apex + row * d * math.sqrt(3) / 2, (j - row / 2) * d)
        for row in range(5)
        for j in range(row + 1)
    ]
    return np.array(pts, dtype=np.float64)


def _free_spot(
    rng: np.random.Generator, placed: list[np.ndarray], spec: TableSpec, near: float
) -> np.ndarray:
    """A random position on the bed not overlapping ``placed`` balls."""
    r = spec.ball_radius
    d = spec.ball_diameter_mm
    for _ in range(500):
        if placed and rng.random() < near:
            base = placed[int(rng.integers(len(placed)))]
            ang = rng.uniform(0, 2 * math.pi)
            p = base + (d + rng.uniform(0.0, 3.0)) * np.array(
                [math.cos(ang), math.sin(ang)]
            )
        elif rng.random() < 0.12:
            # against a cushion
            p = np.array(
                [rng.uniform(-1, 1) * (spec.half_length - r),
                 rng.uniform(-1, 1) * (spec.half_width - r)]
            )
            if rng.random() < 0.5:
                p[0] = math.copysign(spec.half_length - r - rng.uniform(0, 3), p[0])
            else:
                p[1] = math.copysign(spec.half_width - r - rng.uniform(0, 3), p[1])
        else:
            p = np.array(
                [rng.uniform(-1, 1) * (spec.half_length - r - 5),
                 rng.uniform(-1, 1) * (spec.half_width - r - 5)]
            )
        if abs(p[0]) > spec.half_length - r or abs(p[1]) > spec.half_width - r:
            continue
        corner = min(
            math.hypot(abs(p[0]) - spec.half_length, abs(p[1]) - spec.half_width),
            math.hypot(p[0], abs(p[1]) - spec.half_width),
        )
        if corner < 70:
            continue
        if all(np.linalg.norm(p - q) >= d for q in placed):
            return p
    raise RuntimeError("no free position found")


def random_layout(
    rng: np.random.Generator, spec: TableSpec = OFFICIAL
) -> tuple[tuple[str, ...], np.ndarray]:
    """Random ball names and (N, 2) mm centres: a mid-frame or opening position."""
    names: list[str] = []
    placed: list[np.ndarray] = []
    style = rng.random()
    n_reds = int(rng.integers(0, 16))
    colours = [c for c in COLOURS if rng.random() < 0.9]
    on_spots = style < 0.5
    if style < 0.25:
        n_reds = 15
        for p in pack_positions(spec, gap_mm=float(rng.uniform(0.0, 0.3))):
            names.append("red")
            placed.append(p)
        colours = list(COLOURS)
    spots = spec.spots
    for c in colours:
        if on_spots or rng.random() < 0.3:
            p = np.array(spots[c], dtype=np.float64)
            if all(np.linalg.norm(p - q) >= spec.ball_diameter_mm for q in placed):
                names.append(c)
                placed.append(p)
                continue
        names.append(c)
        placed.append(_free_spot(rng, placed, spec, near=0.3))
    while names.count("red") < n_reds:
        names.append("red")
        placed.append(_free_spot(rng, placed, spec, near=0.45))
    names.append("white")
    placed.append(_free_spot(rng, placed, spec, near=0.2))
    return tuple(names), np.array(placed, dtype=np.float64).reshape(-1, 2)


def with_height(xy: np.ndarray, spec: TableSpec = OFFICIAL) -> np.ndarray:
    """(N, 3) centres on the cloth from (N, 2) table mm."""
    xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    return np.column_stack([xy, np.full(len(xy), spec.ball_radius)])


@dataclass(frozen=True)
class CueOccluder:
    """A cue: a tapered light-wood stick from a table point out of the frame.

    Attributes:
        tip_mm: (x, y) of the tip on the table, mm.
        angle_deg: Direction from the tip to the butt, degrees from +x.
        colour_bgr: Wood colour.
    """

    tip_mm: tuple[float, float]
    angle_deg: float
    colour_bgr: tuple[float, float, float] = (120.0, 180.0, 215.0)

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw the cue onto ``image``; return its (H, W) bool mask."""
        a = math.radians(self.angle_deg)
        tip = np.array([*self.tip_mm, 60.0])
        butt = tip + np.array([math.cos(a), math.sin(a), 0.25]) * 1450.0
        px = camera.project(np.stack([tip, butt]))
        mask = np.zeros(image.shape[:2], np.uint8)
        n = 12
        for i in range(n):
            p0 = px[0] + (px[1] - px[0]) * i / n
            p1 = px[0] + (px[1] - px[0]) * (i + 1) / n
            width = round(4 + 14 * (i + 0.5) / n)
            cv2.line(
                mask, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), 1, width
            )
        sel = mask.astype(bool)
        image[sel] = np.array(self.colour_bgr, dtype=np.float64).astype(np.uint8)
        return sel


@dataclass(frozen=True)
class HandOccluder:
    """A hand or arm: a skin-coloured ellipse over a table point.

    Attributes:
        centre_mm: (x, y) on the table, mm.
        size_mm: (length, width) of the ellipse, mm.
        angle_deg: Orientation in the image, degrees.
        colour_bgr: Skin or sleeve colour.
    """

    centre_mm: tuple[float, float]
    size_mm: tuple[float, float] = (260.0, 110.0)
    angle_deg: float = 0.0
    colour_bgr: tuple[float, float, float] = (120.0, 150.0, 200.0)

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw the hand onto ``image``; return its (H, W) bool mask."""
        c = np.array([*self.centre_mm, 120.0])
        px = camera.project(c[None])[0]
        scale = float(camera.ball_radius_px(c[None], 1.0)[0])
        axes = (int(self.size_mm[0] * scale / 2), int(self.size_mm[1] * scale / 2))
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.ellipse(
            mask, (int(px[0]), int(px[1])), axes, self.angle_deg, 0, 360, 1, -1
        )
        sel = mask.astype(bool)
        image[sel] = np.array(self.colour_bgr, dtype=np.float64).astype(np.uint8)
        return sel


def random_occluders(
    rng: np.random.Generator, spec: TableSpec = OFFICIAL
) -> list[CueOccluder | HandOccluder]:
    """Zero to two random occluders (a cue, a hand)."""
    occ: list[CueOccluder | HandOccluder] = []
    if rng.random() < 0.5:
        tip = (
            float(rng.uniform(-0.9, 0.9) * spec.half_length),
            float(rng.uniform(-0.9, 0.9) * spec.half_width),
        )
        occ.append(
            CueOccluder(
                tip, float(rng.uniform(0, 360)),
                tuple(float(v) for v in rng.uniform([60, 110, 150], [150, 200, 235])),
            )
        )
    if rng.random() < 0.3:
        centre = (
            float(rng.uniform(-1.0, 1.0) * spec.half_length),
            float(rng.choice([-1, 1]) * rng.uniform(0.6, 1.0) * spec.half_width),
        )
        occ.append(
            HandOccluder(
                centre, angle_deg=float(rng.uniform(0, 180)),
                colour_bgr=tuple(
                    float(v) for v in rng.uniform([40, 60, 90], [170, 190, 230])
                ),
            )
        )
    return occ


@dataclass(frozen=True, eq=False)
class SceneFrame:
    """One rendered frame with its truth.

    Attributes:
        image: (H, W, 3) uint8 BGR.
        names: Ball names, length N.
        xy_mm: (N, 2) float64 true centres, table frame, mm.
        xy_px: (N, 2) float64 true centres' images, px (distorted frame).
        visible: (N,) float64 visible fraction of each ball's disc (0-1).
        moving: (N,) bool, True for a ball that moves during the exposure.
    """

    image: np.ndarray
    names: tuple[str, ...]
    xy_mm: np.ndarray
    xy_px: np.ndarray
    visible: np.ndarray
    moving: np.ndarray


def render_scene(
    camera: Camera,
    appearance: Appearance,
    names: tuple[str, ...],
    xy_mm: np.ndarray,
    rng: np.random.Generator,
    velocity_mm_s: np.ndarray | None = None,
    exposure_s: float = 1 / 100,
    occluders: tuple = (),
) -> SceneFrame:
    """Render balls at ``xy_mm`` (optionally moving, for motion blur) with truth."""
    spec = appearance.table
    xyz = with_height(xy_mm, spec)
    path = None
    moving = np.zeros(len(names), bool)
    if velocity_mm_s is not None and len(names):
        vel = np.asarray(velocity_mm_s, dtype=np.float64).reshape(-1, 2)
        moving = np.linalg.norm(vel, axis=1) > 1.0
        if moving.any():
            ts = np.linspace(-exposure_s / 2, exposure_s / 2, 7)
            # (N, S, 3) C-contiguous seen as (S, N, 3): each ball's samples are
            # contiguous, as cv2.projectPoints in sim.render needs.
            per_ball = xyz[:, None, :] + np.concatenate(
                [vel[:, None, :] * ts[None, :, None], np.zeros((len(xyz), len(ts), 1))],
                axis=2,
            )
            path = np.ascontiguousarray(per_ball).transpose(1, 0, 2)
    image, visible = render_frame_info(
        camera, Balls(names, xyz, path), appearance, rng, occluders
    )
    px = camera.project(xyz) if len(names) else np.zeros((0, 2))
    return SceneFrame(image, tuple(names), np.asarray(xy_mm, float).reshape(-1, 2),
                      px, visible, moving)


def clip_calibration(path: str | Path) -> Calibration:
    """The truth ``Calibration`` of a ``baulk synth`` clip's ``calibration.json``
    (a ``sim.camera.Camera`` dict under ``"camera"``), or of a baulk calibration
    file."""
    data = json.loads(Path(path).read_text())
    if isinstance(data, dict) and isinstance(data.get("camera"), dict):
        return truth_calibration(Camera.from_dict(data["camera"]),
                                 str(data.get("table", "official")))
    from calibration.mapping import load_calibration

    return load_calibration(path)
