"""Rendered frames with known truth for the calibration benchmarks and tests.

Frames come from the project's renderer (``sim.camera`` and ``sim.render``): a random
camera pose (overhead or broadcast), a random appearance (cloth, light, noise, lens
softness), balls on their spots and some reds, and for the broadcast view a player,
a cue and a TV score bar drawn over the table. ``calibration`` never imports this.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.table import OFFICIAL, TableSpec
from sim.camera import Camera, make_camera
from sim.render import Balls, Occluder, random_appearance, render_frame

VIEWS = ("overhead", "broadcast")


@dataclass(frozen=True)
class TruthFrame:
    """A rendered frame and the camera that saw it.

    Attributes:
        image: (H, W, 3) uint8 BGR frame (lens distortion included).
        camera: The true camera (``camera.project`` gives distorted pixels).
        view: ``"overhead"`` or ``"broadcast"``.
    """

    image: np.ndarray
    camera: Camera
    view: str


@dataclass(frozen=True)
class ScoreBar:
    """A TV score bar: a dark box with light text blocks, image coordinates.

    Attributes:
        box: (x0, y0, x1, y1) as fractions of the image size.
        colour: BGR of the box.
    """

    box: tuple[float, float, float, float]
    colour: tuple[int, int, int]

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw in place; return the (H, W) bool coverage."""
        h, w = image.shape[:2]
        x0, y0, x1, y1 = (
            int(self.box[0] * w),
            int(self.box[1] * h),
            int(self.box[2] * w),
            int(self.box[3] * h),
        )
        cv2.rectangle(image, (x0, y0), (x1, y1), self.colour, -1)
        step = max(8, (y1 - y0) // 2)
        for x in range(x0 + step, x1 - step, step):
            if (x // step) % 3:
                cv2.rectangle(
                    image,
                    (x, y0 + (y1 - y0) // 3),
                    (x + step // 2, y1 - (y1 - y0) // 3),
                    (230, 230, 230),
                    -1,
                )
        mask = np.zeros((h, w), bool)
        mask[max(y0, 0) : max(y1 + 1, 0), max(x0, 0) : max(x1 + 1, 0)] = True
        return mask


@dataclass(frozen=True)
class Player:
    """A player leaning over a cushion, with a cue: dark body, white shirt, cue.

    Attributes:
        at_mm: (x, y) table point of the player's chest over the cushion, mm.
        aim_mm: (x, y) table point the cue points at, mm.
        size_mm: Body width, mm.
        body: BGR of the waistcoat.
    """

    at_mm: tuple[float, float]
    aim_mm: tuple[float, float]
    size_mm: float
    body: tuple[int, int, int]

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw in place; return the (H, W) bool coverage."""
        h, w = image.shape[:2]
        mask = np.zeros((h, w), np.uint8)
        x, y = self.at_mm
        chest = np.array([x, y, 250.0])
        pts = camera.project(
            np.array(
                [chest, chest + [self.size_mm / 2, 0, 0], chest + [0, 0, 700.0]]
            )
        )
        c = pts[0]
        rx = max(6.0, float(np.linalg.norm(pts[1] - pts[0])))
        ry = max(10.0, float(np.linalg.norm(pts[2] - pts[0])))
        if not np.all(np.isfinite(pts)):
            return mask.astype(bool)
        centre = (int(c[0]), int(c[1] - 0.5 * ry))
        for m, col in ((mask, 1), (image, self.body)):
            cv2.ellipse(m, centre, (int(rx), int(ry)), 0, 0, 360, col, -1)
        head = (int(c[0]), int(c[1] - 1.2 * ry))
        for m, col in ((mask, 1), (image, (60, 80, 120))):
            cv2.circle(m, head, int(0.45 * rx), col, -1)
        shirt = (int(c[0]), int(c[1] - 0.3 * ry))
        cv2.ellipse(image, shirt, (int(0.3 * rx), int(0.5 * ry)), 0, 0, 360,
                    (225, 225, 230), -1)
        cue = camera.project(
            np.array([[x, y, 120.0], [self.aim_mm[0], self.aim_mm[1], 30.0]])
        )
        if np.all(np.isfinite(cue)):
            a = (int(cue[0, 0]), int(cue[0, 1]))
            b = (int(cue[1, 0]), int(cue[1, 1]))
            width = max(2, int(0.02 * rx))
            for m, col in ((mask, 1), (image, (90, 160, 200))):
                cv2.line(m, a, b, col, width, cv2.LINE_AA)
        return mask.astype(bool)


def random_balls(rng: np.random.Generator, spec: TableSpec = OFFICIAL) -> Balls:
    """Colours on their spots (each missing at random), some reds and the white."""
    r = spec.ball_radius
    names: list[str] = []
    xyz: list[tuple[float, float, float]] = []
    for colour, (x, y) in spec.spots.items():
        if rng.random() < 0.85:
            names.append(colour)
            xyz.append((x, y, r))
    for name in ["red"] * int(rng.integers(0, 15)) + ["white"]:
        for _ in range(20):
            x = rng.uniform(-spec.half_length + r, spec.half_length - r)
            y = rng.uniform(-spec.half_width + r, spec.half_width - r)
            if all(math.hypot(x - a, y - b) > 2 * r + 1 for a, b, _ in xyz):
                names.append(name)
                xyz.append((x, y, r))
                break
    return Balls(tuple(names), np.array(xyz, np.float64).reshape(-1, 3))


def random_occluders(
    rng: np.random.Generator, view: str, spec: TableSpec = OFFICIAL
) -> list[Occluder]:
    """A score bar and a player with a cue (broadcast); overhead: a player, at times."""
    occ: list[Occluder] = []
    hl, hw = spec.half_length, spec.half_width
    if view == "broadcast":
        y0 = rng.uniform(0.84, 0.9)
        x0 = rng.uniform(0.15, 0.3)
        occ.append(
            ScoreBar(
                (x0, y0, x0 + rng.uniform(0.35, 0.6), y0 + rng.uniform(0.04, 0.07)),
                tuple(int(v) for v in rng.integers(10, 90, 3)),  # type: ignore[arg-type]
            )
        )
    if view == "broadcast" or rng.random() < 0.5:
        side = rng.choice([-1.0, 1.0])
        x = rng.uniform(-0.6 * hl, 0.8 * hl)
        at = (x, side * (hw + 150.0))
        aim = (x + rng.uniform(-600, 600), side * (hw - rng.uniform(300, 900)))
        body = tuple(int(v) for v in rng.integers(5, 45, 3))
        occ.append(Player(at, aim, float(rng.uniform(380, 480)), body))  # type: ignore[arg-type]
    return occ


def truth_frame(
    view: str,
    index: int,
    seed: int = 0,
    size: tuple[int, int] = (1920, 1080),
    cache: Path | None = None,
) -> TruthFrame:
    """The reproducible rendered frame ``index`` of ``view`` (with ``seed``).

    Args:
        view: ``"overhead"`` or ``"broadcast"``.
        index: Frame number.
        seed: Data set seed.
        size: (width, height) in pixels.
        cache: Optional folder keeping rendered images (rendering takes seconds).
    """
    rng = np.random.default_rng([seed, VIEWS.index(view), index, size[0]])
    camera = make_camera(view, rng, size=size)
    appearance = random_appearance(rng)
    balls = random_balls(rng)
    occluders = random_occluders(rng, view)
    path = None
    if cache is not None:
        path = Path(cache) / f"{view}_{seed}_{index}_{size[0]}x{size[1]}.png"
        if path.is_file():
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                return TruthFrame(image, camera, view)
    image = render_frame(camera, balls, appearance, rng, occluders)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), image)
    return TruthFrame(image, camera, view)


def truth_points(spec: TableSpec = OFFICIAL) -> np.ndarray:
    """(N, 2) float64 table mm (cloth): the spots, corners and a 9 x 5 grid."""
    hl, hw = spec.half_length, spec.half_width
    grid = [(x, y) for x in np.linspace(-hl, hl, 9) for y in np.linspace(-hw, hw, 5)]
    return np.array(list(spec.spots.values()) + grid, dtype=np.float64)


def seen_px(frame: TruthFrame, points_mm: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
    """(N, 2) float64 pixels (distorted, as captured) of table points on z = z_mm."""
    return frame.camera.project_cloth(points_mm, z_mm)
