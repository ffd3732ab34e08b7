"""Render a snooker table and its balls through a ``Camera``: fast, vectorised.

The static table (cloth, cushions, rails, pockets, markings, floor, backdrop) is
ray-cast once per (camera, appearance) pair with 2x supersampling and cached; each
frame then copies it, adds contact shadows, shaded balls (optionally motion-blurred),
occluders, lens softness and sensor noise.

A ball is drawn as a disc centred exactly on ``camera.project(centre)`` with radius
``camera.ball_radius_px``: projecting the truth positions through the truth camera
lands on the rendered ball centres (the true silhouette of a sphere is an ellipse
whose centre differs from that by well under 0.1 px at these sizes).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import cv2
import numpy as np

from calibration.table import CUSHION_NOSE_HEIGHT_MM, OFFICIAL, TableSpec
from sim.camera import Camera

BALL_BGR: dict[str, tuple[float, float, float]] = {
    "white": (222.0, 232.0, 238.0),
    "red": (28.0, 24.0, 178.0),
    "yellow": (22.0, 205.0, 238.0),
    "green": (70.0, 105.0, 8.0),
    "brown": (22.0, 58.0, 112.0),
    "blue": (190.0, 100.0, 12.0),
    "pink": (150.0, 140.0, 248.0),
    "black": (22.0, 20.0, 20.0),
}
"""Nominal ball colours (BGR, 0-255 albedo); ``random_appearance`` varies them."""

# Surface ids of the ray-cast background.
_BACKDROP, _FLOOR, _CLOTH, _HOLE, _CUSHION, _FACE, _RAIL, _OUTER, _WALL = range(9)
_RAISED = (_CUSHION, _FACE, _RAIL, _OUTER)


@dataclass(frozen=True)
class Appearance:
    """How one clip looks: cloth, wood, lighting, ball colours, sensor.

    Colours are BGR in 0-255. All fields are plain values, so an ``Appearance`` is
    hashable and the background cache can key on it.

    Attributes:
        table: Table dimensions (from ``calibration.table``).
        cloth_bgr: Cloth colour under full light.
        cloth_noise: Amplitude of the cloth's fibre and mottle texture (0-0.2).
        nap: Amplitude of the nap's brush streaks along the table's length.
        vignette: Light falloff from the table centre to the corners (0-0.4).
        gain: Overall exposure multiplier.
        rail_bgr: Wooden rail colour.
        plate_bgr: Pocket plates / leathers colour.
        net_bgr: Pocket net colour seen inside the holes.
        floor_bgr: Floor colour.
        wall_bgr: Backdrop colour.
        line_bgr: Baulk line and D colour.
        ball_bgr: Ball albedos as ``((name, (b, g, r)), ...)``.
        light_height_mm: Height of the canopy lights above the cloth.
        light_offset_mm: (x, y) offset of the light canopy's centre.
        shininess: Phong exponent of the balls' highlights.
        specular: Highlight strength (0-255 scale added).
        shadow: Darkness of the contact shadows (0-1).
        noise_sigma: Sensor noise standard deviation, grey levels.
        blur_sigma: Lens softness, pixels.
        cushion_mm: Cushion width from nose to rail, mm.
        rail_mm: Wooden rail width, mm.
        seed: Seed of the textures.
    """

    table: TableSpec = OFFICIAL
    cloth_bgr: tuple[float, float, float] = (38.0, 178.0, 42.0)
    cloth_noise: float = 0.06
    nap: float = 0.04
    vignette: float = 0.18
    gain: float = 1.0
    rail_bgr: tuple[float, float, float] = (30.0, 35.0, 75.0)
    plate_bgr: tuple[float, float, float] = (150.0, 185.0, 215.0)
    net_bgr: tuple[float, float, float] = (215.0, 220.0, 225.0)
    floor_bgr: tuple[float, float, float] = (70.0, 70.0, 74.0)
    wall_bgr: tuple[float, float, float] = (60.0, 38.0, 30.0)
    line_bgr: tuple[float, float, float] = (210.0, 225.0, 215.0)
    ball_bgr: tuple[tuple[str, tuple[float, float, float]], ...] = tuple(
        BALL_BGR.items()
    )
    light_height_mm: float = 1100.0
    light_offset_mm: tuple[float, float] = (0.0, 0.0)
    shininess: float = 120.0
    specular: float = 230.0
    shadow: float = 0.55
    noise_sigma: float = 2.5
    blur_sigma: float = 0.6
    cushion_mm: float = 50.0
    rail_mm: float = 120.0
    seed: int = 0

    def ball_color(self, name: str) -> np.ndarray:
        """(3,) float32 BGR albedo of a ball; numbered balls (golf) are red."""
        colors = dict(self.ball_bgr)
        return np.array(colors.get(name, colors["red"]), dtype=np.float32)


def random_appearance(
    rng: np.random.Generator, table: TableSpec = OFFICIAL
) -> Appearance:
    """A plausible random look for one clip."""

    def jitter(c: tuple[float, float, float], s: float) -> tuple[float, float, float]:
        k = rng.uniform(1 - s, 1 + s)
        return tuple(float(np.clip(v * k * rng.uniform(0.95, 1.05), 0, 255)) for v in c)

    cloth = (
        rng.uniform(25, 55),
        rng.uniform(160, 200),
        rng.uniform(20, 60),
    )
    balls = tuple((n, jitter(c, 0.08)) for n, c in BALL_BGR.items())
    return Appearance(
        table=table,
        cloth_bgr=cloth,
        cloth_noise=float(rng.uniform(0.015, 0.04)),
        nap=float(rng.uniform(0.005, 0.025)),
        vignette=float(rng.uniform(0.05, 0.3)),
        gain=float(rng.uniform(0.9, 1.1)),
        rail_bgr=jitter((30.0, 35.0, 75.0), 0.35),
        plate_bgr=jitter((150.0, 185.0, 215.0), 0.15),
        net_bgr=jitter((205.0, 210.0, 212.0), 0.15),
        floor_bgr=jitter((62.0, 60.0, 58.0), 0.35),
        wall_bgr=jitter((55.0, 35.0, 28.0), 0.4),
        ball_bgr=balls,
        light_height_mm=float(rng.uniform(900, 1400)),
        light_offset_mm=(float(rng.uniform(-300, 300)), float(rng.uniform(-100, 100))),
        shininess=float(rng.uniform(60, 200)),
        specular=float(rng.uniform(170, 250)),
        shadow=float(rng.uniform(0.4, 0.7)),
        noise_sigma=float(rng.uniform(1.0, 4.0)),
        blur_sigma=float(rng.uniform(0.4, 0.9)),
        cushion_mm=float(rng.uniform(45, 55)),
        rail_mm=float(rng.uniform(90, 150)),
        seed=int(rng.integers(0, 2**31 - 1)),
    )


@dataclass(frozen=True, eq=False)
class Balls:
    """Balls in a static scene (struct of arrays).

    Attributes:
        names: Ball names (contract names), length N.
        xyz: (N, 3) float64 ball centres, table frame, mm (z = ball radius on the
            cloth).
        path: Optional (S, N, 3) float64 centres at S instants spread over the
            shutter time, for motion blur; ``None`` for a sharp frame.
    """

    names: tuple[str, ...]
    xyz: np.ndarray
    path: np.ndarray | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.names))
        xyz = np.asarray(self.xyz, dtype=np.float64).reshape(-1, 3)
        object.__setattr__(self, "xyz", xyz)
        if len(self.names) != len(xyz):
            raise ValueError(f"{len(self.names)} names for {len(xyz)} positions")
        if self.path is not None:
            path = np.asarray(self.path, dtype=np.float64)
            if path.ndim != 3 or path.shape[1:] != xyz.shape:
                raise ValueError(
                    f"path shape {path.shape}, expected (S, {len(xyz)}, 3)"
                )
            object.__setattr__(self, "path", path)


class Occluder(Protocol):
    """Something drawn over the scene (player, cue, hand, score bar)."""

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw onto ``image`` (in place); return its (H, W) bool coverage mask."""
        ...


@dataclass(frozen=True, eq=False)
class Background:
    """The static table as seen by one camera (cached per clip).

    Attributes:
        image: (H, W, 3) uint8 BGR, lens blur not yet applied.
        raised_depth: (H, W) float32 camera depth (mm) of cushions and rails,
            +inf elsewhere: they hide balls behind them.
        noise_up: (H + 64, W + 64, 3) uint8 positive part of a sensor noise pool.
        noise_down: (H + 64, W + 64, 3) uint8 negative part of the same pool.
    """

    image: np.ndarray
    raised_depth: np.ndarray
    noise_up: np.ndarray = field(repr=False)
    noise_down: np.ndarray = field(repr=False)
    blurred: np.ndarray | None = field(default=None, repr=False)


def _noise_texture(
    rng: np.random.Generator, shape: tuple[int, int], octaves: Sequence[int]
) -> np.ndarray:
    """Sum of smooth noises (float32, ~zero mean, ~unit std) at several scales."""
    h, w = shape
    total = np.zeros(shape, np.float32)
    for i, cell in enumerate(octaves):
        small = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2)))
        big = cv2.resize(
            small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
        )
        total += big * (0.7**i)
    return total / max(1e-6, float(total.std()))


def _undistort(camera: Camera, px: np.ndarray) -> np.ndarray:
    """(M, 2) pixel coordinates -> (M, 2) float32 normalised undistorted coords."""
    pts = np.ascontiguousarray(px, dtype=np.float64).reshape(-1, 1, 2)
    return (
        cv2.undistortPoints(pts, camera.K, camera.dist)
        .reshape(-1, 2)
        .astype(np.float32)
    )


def _sample(tex: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Bilinear samples of a 2-D texture at 1-D texel coordinates (u, v)."""
    n = len(u)
    cols = 1024
    rows = max(1, -(-n // cols))
    pad = rows * cols - n
    mu = np.pad(u, (0, pad)).reshape(rows, cols).astype(np.float32)
    mv = np.pad(v, (0, pad)).reshape(rows, cols).astype(np.float32)
    out = cv2.remap(tex, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return out.ravel()[:n]


_PLATE = 9  # rail pixels over the pocket plates (raised, like the rail)


@dataclass(frozen=True, eq=False)
class _Scene:
    """Geometry and textures of the static table (table mm)."""

    camera: Camera
    app: Appearance
    holes: tuple[tuple[float, float, float], ...]
    fine: np.ndarray
    nap: np.ndarray
    grain: np.ndarray


def _make_scene(camera: Camera, app: Appearance, rng: np.random.Generator) -> _Scene:
    table = app.table
    hl, hw, cw = table.half_length, table.half_width, app.cushion_mm
    sign = {"baulk": -1.0, "top": 1.0, "left": 1.0, "right": -1.0}
    holes: list[tuple[float, float, float]] = []
    for pocket in table.pockets:
        end, side = pocket.value.split("_")
        sy = sign[side]
        if end == "middle":
            holes.append((0.0, sy * (hw + 0.6 * cw), table.middle_mouth_mm / 2 + 4))
        else:
            off = 0.45 * cw
            holes.append(
                (
                    sign[end] * (hl + off),
                    sy * (hw + off),
                    table.corner_mouth_mm / 2 + 10,
                )
            )
    ol, ow = hl + cw + app.rail_mm, hw + cw + app.rail_mm
    tw, th = int(2 * ol / _TEX_MM) + 4, int(2 * ow / _TEX_MM) + 4
    fine = _noise_texture(rng, (th, tw), (80, 250, 15, 3))
    nap = _noise_texture(rng, (th * 4, max(8, tw // 40)), (4, 12))
    nap = cv2.resize(nap, (tw, th), interpolation=cv2.INTER_LINEAR)
    grain = _noise_texture(rng, (th * 2, max(8, tw // 30)), (2, 6))
    grain = cv2.resize(grain, (tw, th), interpolation=cv2.INTER_LINEAR)
    return _Scene(camera, app, tuple(holes), fine, nap, grain)


_TEX_MM = 2.0


def _cast(scene: _Scene, xn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ray-cast and shade rays given as (M, 2) normalised image coordinates.

    Returns:
        (colour, sid, depth): (M, 3) float32 BGR, (M,) uint8 surface ids, (M,)
        float32 camera depth in mm (inf for the backdrop).
    """
    camera, app, holes = scene.camera, scene.app, scene.holes
    table = app.table
    hl, hw = table.half_length, table.half_width
    cw, rw = app.cushion_mm, app.rail_mm
    hn, hr, zb, zf = (
        CUSHION_NOSE_HEIGHT_MM,
        CUSHION_NOSE_HEIGHT_MM + 4.0,
        -230.0,
        -820.0,
    )
    ol, ow = hl + cw + rw, hw + cw + rw  # outer rail edges
    n_rays = len(xn)
    rt = camera.R.T.astype(np.float32)
    c = camera.center.astype(np.float32)
    dx = rt[0, 0] * xn[:, 0] + rt[0, 1] * xn[:, 1] + rt[0, 2]
    dy = rt[1, 0] * xn[:, 0] + rt[1, 1] * xn[:, 1] + rt[1, 2]
    dz = rt[2, 0] * xn[:, 0] + rt[2, 1] * xn[:, 1] + rt[2, 2]
    # t along the ray equals the camera-frame depth (ray's camera z component is 1).
    best_t = np.full(n_rays, np.inf, np.float32)
    sid = np.full(n_rays, _BACKDROP, np.uint8)
    hx = np.zeros(n_rays, np.float32)
    hy = np.zeros(n_rays, np.float32)
    hz = np.zeros(n_rays, np.float32)
    corner_cut = table.corner_mouth_mm * 0.8
    middle_cut = table.middle_mouth_mm / 2 + 6

    def in_hole(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        m = np.zeros(x.shape, bool)
        for px, py, r in holes:
            m |= (x - px) ** 2 + (y - py) ** 2 < r * r
        return m

    def cut(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        ax, ay = np.abs(x), np.abs(y)
        return ((ax > hl - corner_cut) & (ay > hw - corner_cut)) | (
            (ay > hw - 1) & (ax < middle_cut)
        )

    def consider(t: np.ndarray, valid: np.ndarray, surf: int) -> None:
        take = np.nonzero(valid & (t > 0) & (t < best_t))[0]
        tt = t[take]
        best_t[take] = tt
        sid[take] = surf
        hx[take] = c[0] + tt * dx[take]
        hy[take] = c[1] + tt * dy[take]
        hz[take] = c[2] + tt * dz[take]

    with np.errstate(divide="ignore", invalid="ignore"):
        for z, kind in ((0.0, "cloth"), (hn, "cushion"), (hr, "rail"), (zf, "floor")):
            t = (z - c[2]) / dz
            x, y = c[0] + t * dx, c[1] + t * dy
            ax, ay = np.abs(x), np.abs(y)
            inside_outer = (ax < ol) & (ay < ow)
            if kind == "cloth":
                playing = (ax <= hl) & (ay <= hw)
                shelf = inside_outer & (ax < hl + cw) & (ay < hw + cw) & cut(x, y)
                hole = in_hole(x, y) & inside_outer
                consider(t, (playing | shelf) & ~hole, _CLOTH)
                consider(t, hole, _HOLE)
            elif kind == "cushion":
                band = (ax < hl + cw) & (ay < hw + cw) & ~((ax <= hl) & (ay <= hw))
                consider(t, band & ~cut(x, y) & ~in_hole(x, y), _CUSHION)
            elif kind == "rail":
                band = inside_outer & ~((ax < hl + cw) & (ay < hw + cw))
                hole = in_hole(x, y)
                consider(t, band & ~hole, _RAIL)
                consider(t, band & hole, _HOLE)
            else:
                consider(t, (ax < 9000) & (ay < 9000), _FLOOR)
        for axis, lim, other_lim, z0, z1, surf in (
            (0, hl, hw, 0.0, hn, _FACE),
            (1, hw, hl, 0.0, hn, _FACE),
            (0, ol, ow, zb, hr, _OUTER),
            (1, ow, ol, zb, hr, _OUTER),
        ):
            da, db = (dx, dy) if axis == 0 else (dy, dx)
            ca, cb = (c[0], c[1]) if axis == 0 else (c[1], c[0])
            for s in (-1.0, 1.0):
                t = (s * lim - ca) / da
                b = cb + t * db
                z = c[2] + t * dz
                valid = (np.abs(b) < other_lim) & (z >= z0) & (z <= z1)
                if surf == _FACE:
                    xa = np.full_like(b, s * lim) if axis == 0 else b
                    ya = b if axis == 0 else np.full_like(b, s * lim)
                    valid &= ~cut(xa * 0.999, ya * 0.999)
                consider(t, valid, surf)
        wall_x = hl + 3500.0
        t = (wall_x - c[0]) / dx
        consider(t, (dx > 0) & (c[2] + t * dz > zf), _WALL)

    img = np.zeros((n_rays, 3), np.float32)
    u = (hx + ol) / _TEX_MM
    v = (hy + ow) / _TEX_MM
    fine_s = _sample(scene.fine, u, v)
    lx, ly = app.light_offset_mm
    cloth = np.array(app.cloth_bgr, np.float32)

    def light_at(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        fx, fy = (x - lx) / (hl + 300), (y - ly) / (hw + 600)
        return app.gain * (1.0 - app.vignette * (fx * fx + fy * fy))

    m = np.nonzero(sid == _CLOTH)[0]
    x, y = hx[m], hy[m]
    lt = light_at(x, y)
    shade = lt * (
        1 + app.cloth_noise * fine_s[m] + app.nap * _sample(scene.nap, u[m], v[m])
    )
    # Markings: baulk line and D (chalk lines about 3 mm wide), faint spots.
    bx, d_r = table.baulk_line_x, table.d_radius_mm
    dist_line = np.abs(x - bx)
    dist_d = np.abs(np.hypot(x - bx, y) - d_r)
    dist_d = np.where(x <= bx, dist_d, np.inf)
    mark = np.clip(1.5 - np.minimum(dist_line, dist_d) / 1.6, 0, 1)
    mark *= (np.abs(y) < hw).astype(np.float32) * 0.5
    for sx, sy in table.spots.values():
        mark = np.maximum(mark, 0.3 * np.clip(3.0 - np.hypot(x - sx, y - sy), 0, 1))
    # Dark line of the cushion nose's shadow on the cloth.
    edge = np.minimum(hl - np.abs(x), hw - np.abs(y))
    shade *= 1 - 0.45 * np.exp(-np.maximum(edge, 0) / 7.0)
    line_col = np.array(app.line_bgr, np.float32)
    img[m] = (
        cloth[None, :] * (shade * (1 - mark))[:, None]
        + line_col[None, :] * (lt * mark)[:, None]
    )
    m = np.nonzero(sid == _HOLE)[0]
    x, y = hx[m], hy[m]
    rr = np.full(x.shape, np.inf, np.float32)
    for px, py, r in holes:
        rr = np.minimum(rr, np.hypot(x - px, y - py) / r)
    net = np.array(app.net_bgr, np.float32)
    ring = np.clip((rr - 0.45) / 0.45, 0, 1) * (0.6 + 0.25 * fine_s[m])
    img[m] = net[None, :] * ((0.06 + 0.75 * ring) * light_at(x, y))[:, None]
    m = np.nonzero(sid == _CUSHION)[0]
    img[m] = (
        cloth[None, :]
        * (0.9 * light_at(hx[m], hy[m]) * (1 + app.cloth_noise * fine_s[m]))[:, None]
    )
    m = np.nonzero(sid == _FACE)[0]
    img[m] = (
        cloth[None, :] * ((0.4 + 0.35 * (hz[m] / hn)) * light_at(hx[m], hy[m]))[:, None]
    )
    rail = np.array(app.rail_bgr, np.float32)
    plate = np.array(app.plate_bgr, np.float32)
    m = np.nonzero(sid == _RAIL)[0]
    x, y = hx[m], hy[m]
    grain_s = _sample(scene.grain, u[m], v[m])
    wood = rail[None, :] * (1 + 0.08 * grain_s + 0.03 * fine_s[m])[:, None]
    near_plate = np.zeros(x.shape, bool)
    for px, py, r in holes:
        near_plate |= np.hypot(x - px, y - py) < r + 38
    wood[near_plate] = plate[None, :] * (1 + 0.04 * fine_s[m][near_plate])[:, None]
    img[m] = wood * light_at(x, y)[:, None]
    sid[m[near_plate]] = _PLATE
    m = np.nonzero(sid == _OUTER)[0]
    img[m] = rail[None, :] * (0.5 + 0.05 * _sample(scene.grain, u[m], v[m]))[:, None]
    m = np.nonzero(sid == _FLOOR)[0]
    fl = np.array(app.floor_bgr, np.float32)
    under = (np.abs(hx[m]) < ol + 150) & (np.abs(hy[m]) < ow + 150)
    img[m] = (
        fl[None, :] * ((1 + 0.025 * fine_s[m]) * np.where(under, 0.45, 1.0))[:, None]
    )
    m = np.nonzero((sid == _WALL) | (sid == _BACKDROP))[0]
    wall = np.array(app.wall_bgr, np.float32)
    img[m] = wall[None, :] * (1 + 0.04 * fine_s[m])[:, None]
    np.clip(img, 0, 255, out=img)
    return img, sid, best_t


def _render_background(camera: Camera, app: Appearance, ss: int = 3) -> Background:
    """Ray-cast the static table for one camera; see ``Background``.

    Every pixel is cast through its centre; pixels on a boundary between surfaces
    are cast again with ``ss`` x ``ss`` sub-rays and averaged (anti-aliasing).
    """
    rng = np.random.default_rng(app.seed)
    scene = _make_scene(camera, app, rng)
    w, h = camera.width, camera.height
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    px = np.stack([gx.ravel(), gy.ravel()], axis=1)
    colour, sid, depth = _cast(scene, _undistort(camera, px))
    raised_ids = np.array([*_RAISED, _PLATE])
    raised = np.where(np.isin(sid, raised_ids), depth, np.inf).astype(np.float32)
    sid2 = sid.reshape(h, w)
    edge = np.zeros((h, w), np.uint8)
    edge[:, :-1] |= sid2[:, :-1] != sid2[:, 1:]
    edge[:-1, :] |= sid2[:-1, :] != sid2[1:, :]
    edge = cv2.dilate(edge, np.ones((3, 3), np.uint8))
    idx = np.nonzero(edge.ravel())[0]
    if len(idx) and ss > 1:
        off = (np.arange(ss, dtype=np.float32) + 0.5) / ss - 0.5
        ox, oy = np.meshgrid(off, off)
        sub = px[idx][:, None, :] + np.stack([ox.ravel(), oy.ravel()], axis=1)[None]
        c2, s2, d2 = _cast(scene, _undistort(camera, sub.reshape(-1, 2)))
        k = ss * ss
        colour[idx] = c2.reshape(-1, k, 3).mean(axis=1)
        r2 = np.where(np.isin(s2, raised_ids), d2, np.inf).reshape(-1, k)
        raised[idx] = r2.min(axis=1)
    image = colour.reshape(h, w, 3)
    raised = raised.reshape(h, w)
    noise = np.round(rng.normal(0.0, app.noise_sigma, (h + 64, w + 64, 3)))
    noise = np.clip(noise, -127, 127)
    up = np.maximum(noise, 0).astype(np.uint8)
    down = np.maximum(-noise, 0).astype(np.uint8)
    image_u8 = np.clip(np.round(image), 0, 255).astype(np.uint8)
    blurred = (
        cv2.GaussianBlur(image_u8, (0, 0), app.blur_sigma)
        if app.blur_sigma > 0
        else image_u8
    )
    return Background(
        image=image_u8,
        raised_depth=raised,
        noise_up=up,
        noise_down=down,
        blurred=blurred,
    )


@lru_cache(maxsize=4)
def _cached_background(cam_key: bytes, app: Appearance, camera: Camera) -> Background:
    return _render_background(camera, app)


def background(camera: Camera, appearance: Appearance) -> Background:
    """The cached static table for ``camera`` and ``appearance``."""
    return _cached_background(camera.key(), appearance, camera)


def _light_pos(app: Appearance, ball: np.ndarray) -> np.ndarray:
    """Position of the canopy light that a ball at ``ball`` (3,) mm sees."""
    lx, ly = app.light_offset_mm
    return np.array(
        [lx + 0.6 * (ball[0] - lx), ly + 0.6 * (ball[1] - ly), app.light_height_mm]
    )


def _shadow_patches(
    camera: Camera,
    xyz_samples: np.ndarray,
    app: Appearance,
    raised: np.ndarray,
) -> list[tuple[int, int, int, int, np.ndarray]]:
    """Contact shadow of one ball from (S, 3) samples: (y0, y1, x0, x1, factor)
    patches, ``factor`` (h, w) float32 to multiply the image by."""
    r = app.table.ball_radius
    s = len(xyz_samples)
    h, w = raised.shape[:2]
    acc: dict[tuple[int, int, int, int], np.ndarray] = {}
    for p in xyz_samples:
        ground = np.array([p[0], p[1], 0.0])
        light = _light_pos(app, p)
        away = ground[:2] - light[:2]
        away = away / max(1e-6, float(np.linalg.norm(away)))
        centre = ground[:2] + away * r * 0.25 * (
            np.linalg.norm(ground[:2] - light[:2]) / app.light_height_mm
        )
        pts = np.array(
            [
                [centre[0], centre[1], 0.0],
                [centre[0] + 1, centre[1], 0.0],
                [centre[0], centre[1] + 1, 0.0],
            ]
        )
        px = camera.project(pts)
        jac = np.column_stack([px[1] - px[0], px[2] - px[0]])  # px per mm
        ext = 1.6 * r * float(np.abs(jac).sum(axis=1).max())
        x0, x1 = int(px[0, 0] - ext), int(px[0, 0] + ext) + 2
        y0, y1 = int(px[0, 1] - ext), int(px[0, 1] + ext) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        gx, gy = np.meshgrid(np.arange(x0, x1) - px[0, 0], np.arange(y0, y1) - px[0, 1])
        inv = np.linalg.inv(jac)
        mx = inv[0, 0] * gx + inv[0, 1] * gy
        my = inv[1, 0] * gx + inv[1, 1] * gy
        d2 = (mx * mx + my * my) / (r * r)
        sh = app.shadow * (0.75 * np.exp(-d2 / 0.18) + 0.35 * np.exp(-d2 / 1.1))
        sh = np.minimum(sh, 0.95).astype(np.float32)
        key = (y0, y1, x0, x1)
        acc[key] = acc.get(key, 0) + sh / s
    patches = []
    for (y0, y1, x0, x1), sh in acc.items():
        vis = np.isinf(raised[y0:y1, x0:x1])
        patches.append((y0, y1, x0, x1, (1 - sh * vis).astype(np.float32)))
    return patches


_BallPatch = tuple[int, int, int, int, np.ndarray, np.ndarray, float]


def _ball_patch(
    camera: Camera,
    name: str,
    xyz_samples: np.ndarray,
    app: Appearance,
    raised: np.ndarray,
) -> _BallPatch | None:
    """One (possibly blurred) ball: (y0, y1, x0, x1, premultiplied colour (h, w, 3),
    alpha (h, w), visible fraction), or None when outside the image."""
    r = app.table.ball_radius
    h, w = raised.shape[:2]
    centres = camera.project(xyz_samples)
    radii = camera.ball_radius_px(xyz_samples, r)
    depths = camera.depth(xyz_samples)
    x0 = int(np.floor((centres[:, 0] - radii).min())) - 2
    x1 = int(np.ceil((centres[:, 0] + radii).max())) + 3
    y0 = int(np.floor((centres[:, 1] - radii).min())) - 2
    y1 = int(np.ceil((centres[:, 1] + radii).max())) + 3
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    total_area = float(np.pi * np.mean(radii) ** 2)
    if cx1 <= cx0 or cy1 <= cy0:
        return None
    gx, gy = np.meshgrid(
        np.arange(cx0, cx1, dtype=np.float32), np.arange(cy0, cy1, dtype=np.float32)
    )
    albedo = app.ball_color(name)
    cloth = np.array(app.cloth_bgr, np.float32)
    s = len(xyz_samples)
    acc_col = np.zeros((*gx.shape, 3), np.float32)
    acc_a = np.zeros(gx.shape, np.float32)
    raised_patch = raised[cy0:cy1, cx0:cx1]
    for k in range(s):
        p = xyz_samples[k]
        cu, cv_, rp = centres[k, 0], centres[k, 1], radii[k]
        ddx, ddy = (gx - cu) / rp, (gy - cv_) / rp
        d2 = ddx * ddx + ddy * ddy
        dist = np.sqrt(d2)
        alpha = np.clip((1.0 - dist) * rp + 0.5, 0.0, 1.0)
        alpha *= raised_patch > depths[k] - r
        # Normal in the camera frame: view ray v, image axes ex, ey orthogonal to it.
        pc = camera.to_camera(p)[0]
        vdir = pc / np.linalg.norm(pc)
        ex = np.array([1.0, 0, 0]) - vdir[0] * vdir
        ex /= np.linalg.norm(ex)
        ey = np.cross(vdir, ex)
        nz = np.sqrt(np.clip(1.0 - d2, 0.0, 1.0))
        n = (
            ddx[..., None] * ex[None, None, :]
            + ddy[..., None] * ey[None, None, :]
            - nz[..., None] * vdir[None, None, :]
        ).astype(np.float32)
        lw = _light_pos(app, p) - p
        lc = camera.R @ (lw / np.linalg.norm(lw))
        upc = camera.R @ np.array([0.0, 0.0, 1.0])
        vc = -vdir
        hv = (lc + vc) / np.linalg.norm(lc + vc)
        ndl = np.clip(n @ lc.astype(np.float32), 0, 1)
        ndh = np.clip(n @ hv.astype(np.float32), 0, 1)
        ndu = n @ upc.astype(np.float32)
        diffuse = 0.25 + 0.85 * ndl
        spec = app.specular * ndh**app.shininess
        rim = np.clip(-ndu, 0, 1) ** 1.5
        col = albedo[None, None, :] * diffuse[..., None] * app.gain
        col += (0.18 * rim)[..., None] * cloth[None, None, :]
        col += spec[..., None]
        acc_col += col * alpha[..., None]
        acc_a += alpha
    acc_col /= s
    acc_a /= s
    vis = float(min(1.0, acc_a.sum() / max(total_area, 1e-6)))
    return (cy0, cy1, cx0, cx1, acc_col, acc_a, vis)


_PATCHES: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_LAST: dict[str, Any] = {}


def _cached(key: tuple[Any, ...], make: Any) -> Any:
    """LRU cache of ball and shadow patches (static balls are drawn once)."""
    if key in _PATCHES:
        _PATCHES.move_to_end(key)
        return _PATCHES[key]
    value = make()
    _PATCHES[key] = value
    if len(_PATCHES) > 4096:
        _PATCHES.popitem(last=False)
    return value


def _compose(
    camera: Camera, balls: Balls, app: Appearance, bg: Background
) -> tuple[np.ndarray, np.ndarray]:
    """Background + shadows + balls, lens blur applied; visible fractions."""
    ck = camera.key()
    n = len(balls.names)
    samples = balls.path if balls.path is not None else balls.xyz[None]
    trajs = []
    for i in range(n):
        traj = samples[:, i]
        if len(traj) > 1:
            px = camera.project(traj)
            if np.abs(px - px[:1]).max() < 0.3:
                traj = traj[:1]
        trajs.append(np.ascontiguousarray(traj))
    out = bg.image.copy()
    dirty: list[tuple[int, int, int, int]] = []
    for traj in trajs:
        key = (ck, app, "shadow", traj.tobytes())
        patches = _cached(
            key, lambda t=traj: _shadow_patches(camera, t, app, bg.raised_depth)
        )
        for y0, y1, x0, x1, factor in patches:
            patch = out[y0:y1, x0:x1].astype(np.float32) * factor[..., None]
            out[y0:y1, x0:x1] = (patch + 0.5).astype(np.uint8)
            dirty.append((y0, y1, x0, x1))
    order = np.argsort(-camera.depth(balls.xyz)) if n else []
    visible = np.zeros(n)
    for i in order:
        traj = trajs[i]
        key = (ck, app, balls.names[i], traj.tobytes())
        bp = _cached(
            key,
            lambda t=traj, nm=balls.names[i]: _ball_patch(
                camera, nm, t, app, bg.raised_depth
            ),
        )
        if bp is None:
            continue
        y0, y1, x0, x1, col, alpha, vis = bp
        patch = out[y0:y1, x0:x1].astype(np.float32) * (1 - alpha)[..., None] + col
        out[y0:y1, x0:x1] = np.clip(patch + 0.5, 0, 255).astype(np.uint8)
        dirty.append((y0, y1, x0, x1))
        visible[i] = vis
    if app.blur_sigma <= 0 or bg.blurred is None:
        return out, visible
    # Blur is linear and local: start from the blurred background and re-blur only
    # the rectangles that changed (with a margin of 4 sigma).
    final = bg.blurred.copy()
    h, w = out.shape[:2]
    m = math.ceil(4 * app.blur_sigma) + 1
    for y0, y1, x0, x1 in dirty:
        ey0, ey1, ex0, ex1 = (
            max(y0 - 2 * m, 0),
            min(y1 + 2 * m, h),
            max(x0 - 2 * m, 0),
            min(x1 + 2 * m, w),
        )
        region = cv2.GaussianBlur(out[ey0:ey1, ex0:ex1], (0, 0), app.blur_sigma)
        iy0, iy1, ix0, ix1 = (
            max(y0 - m, 0),
            min(y1 + m, h),
            max(x0 - m, 0),
            min(x1 + m, w),
        )
        final[iy0:iy1, ix0:ix1] = region[iy0 - ey0 : iy1 - ey0, ix0 - ex0 : ix1 - ex0]
    return final, visible


def render_frame_info(
    camera: Camera,
    balls: Balls,
    appearance: Appearance,
    rng: np.random.Generator,
    occluders: Sequence[Occluder] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """Render one frame and report how much of each ball is visible.

    Args:
        camera: The camera.
        balls: Ball names and centres (optionally a motion path for blur).
        appearance: The clip's look.
        rng: Random source for the sensor noise.
        occluders: Drawn over the table and balls, in order.

    Returns:
        (image, visible): (H, W, 3) uint8 BGR image; (N,) float64 fraction of each
        ball's disc visible (0-1), cushions and occluders accounted for.
    """
    bg = background(camera, appearance)
    scene = (
        camera.key(),
        appearance,
        balls.names,
        balls.xyz.tobytes(),
        None if balls.path is None else balls.path.tobytes(),
    )
    if _LAST.get("scene") == scene:
        base, visible = _LAST["image"], _LAST["visible"].copy()
    else:
        base, visible = _compose(camera, balls, appearance, bg)
        _LAST.update(scene=scene, image=base, visible=visible.copy())
    h, w = base.shape[:2]
    oy, ox = (int(v) for v in rng.integers(0, 64, size=2))
    img = cv2.add(base, bg.noise_up[oy : oy + h, ox : ox + w])
    cv2.subtract(img, bg.noise_down[oy : oy + h, ox : ox + w], dst=img)
    n = len(balls.names)
    if occluders:
        cover = np.zeros(img.shape[:2], bool)
        for occ in occluders:
            cover |= occ.draw(img, camera)
        if cover.any():
            centres = camera.project(balls.xyz)
            radii = camera.ball_radius_px(balls.xyz, appearance.table.ball_radius)
            for i in range(n):
                visible[i] *= 1.0 - _disc_fraction(cover, centres[i], radii[i])
    return img, visible


def _disc_fraction(mask: np.ndarray, centre: np.ndarray, radius: float) -> float:
    """Fraction of a disc's pixels that are True in ``mask``."""
    h, w = mask.shape
    x0, x1 = int(centre[0] - radius), int(centre[0] + radius) + 2
    y0, y1 = int(centre[1] - radius), int(centre[1] + radius) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    gx, gy = np.meshgrid(np.arange(x0, x1), np.arange(y0, y1))
    disc = (gx - centre[0]) ** 2 + (gy - centre[1]) ** 2 <= radius * radius
    if not disc.any():
        return 0.0
    return float(mask[y0:y1, x0:x1][disc].mean())


def render_frame(
    camera: Camera,
    balls: Balls,
    appearance: Appearance,
    rng: np.random.Generator,
    occluders: Sequence[Occluder] = (),
) -> np.ndarray:
    """Render one frame: (H, W, 3) uint8 BGR. See ``render_frame_info``."""
    return render_frame_info(camera, balls, appearance, rng, occluders)[0]
