"""Ball detection: candidates from a "not cloth" map, sub-pixel circle fits.

Work happens in the image (not a rectified table): a ball's outline is a circle in
the image whose centre is the image of the ball's centre, so fitting that circle and
mapping its centre through the ball-centre plane gives the table position without
the perspective bias a warped top view has.

Steps: the cloth model (``vision.cloth``) marks everything that is not cloth; its
distance transform peaks at ball centres, which splits touching balls (the pack);
each candidate's outline is found along rays (rays that run into a touching
neighbour or a cue find no edge and are dropped), each ray's edge put where the
colour's difference from the cloth falls fastest (so a lit top and a shaded
bottom give the same edge), and a circle is fitted robustly: its radius too where
most of the outline shows, else the calibration's radius held fixed (a ball half
hidden behind others). Balls inside clusters are found from their highlights,
whose offset from the centre is learnt where it was measured on the table, then
fitted to what shows of their outlines. Candidates closer on the table than two
balls can be are one. Thin things (lines, spots) vanish in a small opening;
pockets lie off the bed; the classifier (``vision.identify``) tells balls from
cues, hands and highlights.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Protocol

import cv2
import numpy as np

from calibration.mapping import Calibration
from vision.cloth import ClothModel
from vision.detections import Detections
from vision.geometry import TableView
from vision.identify import (
    BallClassifier,
    ColourRules,
    ball_colour_features,
    constrain_kinds,
    default_classifier,
)
from vision.kinds import KINDS, NONE_CLASS, BallKind

N_RAYS = 40

MIN_DISC_COVER = 0.85
"""Share of a candidate's disc (sampled at 0.3, 0.55 and 0.8 expected radii) that
must be foreground: a ball covers all of it, a line, an arc of the D, a spot or the
edge of a shadow far less (measured on sim clips: balls 1.0, baulk-line and D
candidates 0.2-0.5, a false second white beside the real one 0.6-0.8)."""

MAX_AREA_PER_HIGHLIGHT = 4.0
"""A blob with more than this many ball areas per highlight is not a cluster of
balls (a pack shows 0.5-2): highlights there make candidates only where an
outline fits."""

MIN_APART = 1.6
"""Two candidates closer than this many ball radii on the table are one ball, or
one is false (balls touch at two radii; centres are good to a few mm)."""

SAME_BALL = 0.6
"""Fits (or seeds) whose centres lie closer than this many ball radii on the table
converged onto one ball. Measured on the table, not in the image: seen from a
broadcast angle, a ball in front of the pack (seed 464's pink on its spot) stands
0.57 radius below the apex red in the image, though a ball apart on the table."""

SEED_QUALITY = 0.3
"""Fit quality given to a highlight seed whose outline did not fit: it stands at
the highlight less the offset (``BallDetector._add_highlight_seeds``)."""

HIGHLIGHT_NEAR_MM = 200.0
"""Highlight offsets measured within this distance (table mm) of a ball stand for
its own (``BallDetector._offsets_at``)."""

JAWS_SURE = 0.9
"""Least probability of its kind for a ball found in a pocket's jaws (beyond
``BED_MARGIN_MM``)."""

BED_MARGIN_MM = 9.0
"""A candidate's centre may lie this far beyond the place a ball on the bed can
reach (fits of balls against a cushion)."""

JAWS_MARGIN_MM = 14.0
"""In a corner pocket's mouth, the same, farther: a ball can stop in the jaws, over
the line of the cushion noses (but the dark opening makes false discs deeper in,
and in the middle pockets' openings; a ball dropping in is lost a frame or two
early, which the tracker allows)."""

DEEP_JAWS_MARGIN_MM = 30.0
"""Deeper still in a corner's jaws, short of the pocket's fall
(``TableSpec.corner_fall_radius_mm``), a ball is kept only if ``DEEP_JAWS_SURE``
of its kind (seed 411's cue ball stopped 17 mm over the cushion line, seed 768's
24.5 mm over the end one): the dark opening there makes discs read as red at
0.92 to 0.98 (seeds 411, 419), where that cue ball read as white at 0.9997."""

DEEP_JAWS_SURE = 0.995
"""See ``DEEP_JAWS_MARGIN_MM``."""

FALL_RIM_MM = 20.0
"""A candidate's centre up to this far inside a corner pocket's fall
(``TableSpec.corner_fall_radius_mm``) may be a ball resting on the fall's lip,
read that much deep (seed 2906's white, at rest in the far top-left jaws of a
broadcast view, 4.6 mm outside the fall, was fitted 16.6 mm deeper, inside it:
it went unseen, was taken for potted, and the next stroke began late). A ball
cannot rest inside the fall, so such a reading is only a sighting of a ball
held there (``BallDetector._sure_enough``), never a new ball."""

BARE_COVER = 0.45
"""Most of a ball's disc that may read foreground at a place for the frame to
show it bare (``BallDetector.cover``): seed 1246's top-right jaws read 0.12
empty, 0.8 with the player in front, 1.0 with the red there; empty pockets'
mouths, rendered, 0.0 to 0.31, read against the jaws as the first frame
showed them (``ClothModel.jaws``; not so, up to 0.64 in overhead views: seed
3265)."""


def disc_coverage(fg: np.ndarray, centres: np.ndarray, radii: np.ndarray,
                  hidden: np.ndarray | None = None, unseen: float = 1.0,
                  blind: np.ndarray | None = None) -> np.ndarray:
    """(N,) share of each disc's sample points where ``fg`` >= 0.5.

    Sample points outside ``fg``, or ``hidden``, are left out (a disc wholly
    outside scores ``unseen``); so are those ``blind`` (any value) of a disc
    with a point blind to a dark ball (2), where that leaves at least
    ``BLIND_KEEP`` of them.

    Args:
        fg: (H, W) float32 foreground strength.
        centres: (N, 2) disc centres, px in ``fg``.
        radii: (N,) expected ball radii, px.
        hidden: (H, W) uint8, 1 where an occluder stands in front of the bed
            (``TableView.occluder_mask``), or None.
        blind: (H, W) uint8, 2 where a dark ball cannot be told from the
            table, 1 where no ball can (``ClothModel.blind``), or None.
    """
    n = len(centres)
    if n == 0:
        return np.zeros(0)
    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    rings = np.array([0.3, 0.55, 0.8])
    dx = (rings[:, None] * np.cos(ang)[None]).ravel()
    dy = (rings[:, None] * np.sin(ang)[None]).ravel()
    r = np.asarray(radii, dtype=np.float64).reshape(-1, 1)
    c = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    px = (c[:, :1] + r * dx[None]).astype(np.float32)
    py = (c[:, 1:] + r * dy[None]).astype(np.float32)
    vals = cv2.remap(np.asarray(fg, np.float32), px, py, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
    # points off the map (a ball cut by a search box's edge) do not count
    h, w = fg.shape[:2]
    inside = (px >= 0) & (px <= w - 1) & (py >= 0) & (py <= h - 1)
    if hidden is not None:
        inside &= cv2.remap(hidden, px, py, cv2.INTER_NEAREST,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=0) == 0
    if blind is not None:
        at = cv2.remap(blind, px, py, cv2.INTER_NEAREST,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        seen = inside & (at == 0)
        use = (seen.sum(axis=1) >= BLIND_KEEP * inside.sum(axis=1)) & np.any(
            inside & (at == 2), axis=1)
        inside = np.where(use[:, None], seen, inside)
    hits = ((vals >= 0.5) & inside).sum(axis=1)
    n_in = inside.sum(axis=1)
    return np.where(n_in > 0, hits / np.maximum(n_in, 1), unseen)


BLIND_KEEP = 0.5
"""Least share of a disc's sample points that must be left once its ``blind``
ones are left out for them to be (``disc_coverage``): a disc mostly over an
empty pocket's hole and jaws is no ball."""


class Detector(Protocol):
    """Finds balls in frames of one calibrated camera."""

    def detect(
        self,
        image: np.ndarray,
        frame: int = -1,
        regions: Sequence[tuple[int, int, int, int]] | None = None,
    ) -> Detections:
        """Balls in ``image`` (BGR uint8), optionally only inside pixel boxes
        ``(x0, y0, x1, y1)``."""
        ...


def _peaks(dist: np.ndarray, min_r: float) -> np.ndarray:
    """(N, 2) x, y of distance-transform maxima (plateaus merged), roi px."""
    k = max(3, round(min_r * 0.9) | 1)
    dil = cv2.dilate(dist, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    peak = ((dist >= dil - 1e-3) & (dist >= max(1.5, 0.35 * min_r))).astype(np.uint8)
    n, _, _stats, cents = cv2.connectedComponentsWithStats(peak, connectivity=8)
    if n <= 1:
        return np.zeros((0, 2))
    return cents[1:].astype(np.float64)


def fit_circles(
    fg: np.ndarray,
    centres: np.ndarray,
    radii: np.ndarray,
    down: np.ndarray | None = None,
    iterations: int = 2,
    contrast: np.ndarray | None = None,
    radius_scale: float = 1.0,
    hidden: np.ndarray | None = None,
    small_tol: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sub-pixel circle fits to ball outlines in a foreground map.

    Args:
        fg: (H, W) float32 foreground strength (clipped to 0-1 inside).
        centres: (N, 2) float64 first guesses, px in ``fg``.
        radii: (N,) float64 expected radii, px.
        down: (N, 2) image direction of "down to the cloth" (``TableView.down_px``)
            or None. In oblique views the lower arc (which mirrors the cloth and
            meets the contact shadow) is left out of the fit, unless the rest
            shows too little for one (the front of a pack).
        iterations: Ray casts (each re-centred on the last fit).
        contrast: (H, W) float32 map that grows in proportion to ball coverage
            (``ClothModel.contrast``), or None. Where ``fg`` crosses 0.5 depends
            on how strongly a ball differs from the cloth (a bright, lit upper
            arc's crossing lies further out than a shaded lower arc's: a centre
            biased by a pixel); with ``contrast`` each ray's edge is moved to
            the steepest fall of the contrast near that crossing.
        radius_scale: Fitted over expected radius of fully seen balls; where
            too little of an outline shows (``FREE_FIT_MIN_SHARE``) the radius
            is held at ``radii * radius_scale`` and only the centre is fitted.
        hidden: (H, W) uint8, 1 where an occluder stands in front of the bed
            (``TableView.occluder_mask``), or None. A ray whose edge lies on it
            met the occluder, not the ball's outline: it is left out of the fit
            and of the share that makes the quality.
        small_tol: How much smaller than expected (a share) a free fit may
            be and stand (``FREE_FIT_SMALL_TOL`` where the camera looks down
            on the balls); ``FREE_FIT_RADIUS_TOL`` at least.

    Returns:
        (centres (N, 2) px, radii (N,) px, quality (N,) 0-1: share of the rays
        not hidden that found an edge on the fitted circle; 0 when the fit
        failed).
    """
    fgc = np.clip(fg, 0.0, 1.0).astype(np.float32)
    n = len(centres)
    out_c = np.array(centres, dtype=np.float64).reshape(-1, 2).copy()
    out_r = np.array(radii, dtype=np.float64).reshape(-1).copy()
    quality = np.zeros(n)
    if n == 0:
        return out_c, out_r, quality
    ang = np.linspace(0, 2 * np.pi, N_RAYS, endpoint=False)
    dirs = np.stack([np.cos(ang), np.sin(ang)], axis=1)
    steps = np.linspace(0.25, 1.7, 59)
    r0 = np.array(radii, dtype=np.float64)
    use = np.ones((n, N_RAYS), bool)
    if down is not None:
        dn = np.asarray(down, dtype=np.float64).reshape(n, 2)
        length = np.linalg.norm(dn, axis=1)
        unit = dn / np.maximum(length, 1e-9)[:, None]
        lower = (unit @ dirs.T) > np.cos(np.radians(55))
        use = ~(lower & (length > 0.3)[:, None])
    for _ in range(iterations):
        # (N, R, S) sample positions
        rad = r0[:, None, None] * steps[None, None, :]
        px = out_c[:, None, None, 0] + dirs[None, :, None, 0] * rad
        py = out_c[:, None, None, 1] + dirs[None, :, None, 1] * rad
        vals = cv2.remap(
            fgc,
            px.reshape(n * N_RAYS, -1).astype(np.float32),
            py.reshape(n * N_RAYS, -1).astype(np.float32),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0.0,
        ).reshape(n, N_RAYS, -1)
        inside = vals >= 0.5
        start_in = inside[..., 0] | inside[..., 1]
        outside = ~inside
        outside[..., :2] = False
        first_out = np.where(outside.any(-1), outside.argmax(-1), -1)
        # edge radius on every ray: where the strength first falls below 0.5
        k = np.maximum(first_out, 1)
        a = np.take_along_axis(vals, (k - 1)[..., None], axis=2)[..., 0]
        b = np.take_along_axis(vals, k[..., None], axis=2)[..., 0]
        frac = (a - 0.5) / np.maximum(a - b, 1e-6)
        rr_all = r0[:, None] * (steps[k - 1] + frac * (steps[k] - steps[k - 1]))
        ok_all = (first_out >= 1) & start_in
        if contrast is not None:
            # the contrast's fall from the disc's inner part out to just past
            # the foreground's edge (which a dark halo or shadow can put far out)
            ii, kk = np.nonzero(ok_all)
            hi = np.minimum(rr_all[ii, kk] + EDGE_SEARCH_PX, 1.7 * r0[ii])
            lo = np.maximum(np.minimum(0.6 * r0[ii], hi - 0.5), 0.0)
            rr_con, real = _steepest_fall(contrast, out_c[ii], dirs[kk], lo, hi)
            rr_all[ii[real], kk[real]] = rr_con[real]
        ok_all &= rr_all <= 1.4 * r0[:, None]
        seen = np.ones((n, N_RAYS), bool)
        if hidden is not None:
            # (one pixel past the edge: where the outline ends at the occluder)
            reach = rr_all + 1.0
            ex = (out_c[:, None, 0] + dirs[None, :, 0] * reach).astype(np.float32)
            ey = (out_c[:, None, 1] + dirs[None, :, 1] * reach).astype(np.float32)
            seen = cv2.remap(hidden, ex, ey, cv2.INTER_NEAREST,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=0) == 0
        for i in range(n):
            res, n_use = None, 1
            # without the lower arc where it is left out; with it (better than
            # nothing) where the rest shows too little (the front of the pack)
            for allowed in (use[i] & seen[i], seen[i]):
                sel = ok_all[i] & allowed
                n_use = max(int(allowed.sum()), 1)
                res = _fit_one(out_c[i], dirs[sel] * rr_all[i, sel, None], r0[i],
                               radius_scale, n_use, small_tol)
                if res is not None or use[i].all():
                    break
            if res is None:
                quality[i] = 0.0
                continue
            (cx, cy, rr), used = res
            out_c[i] = (cx, cy)
            out_r[i] = rr
            quality[i] = used / n_use
    return out_c, out_r, quality


def _fit_one(
    centre: np.ndarray, rays: np.ndarray, r_exp: float, radius_scale: float,
    n_use: int, small_tol: float = 0.0,
) -> tuple[tuple[float, float, float], int] | None:
    """One ball's circle from edge offsets ``rays`` (M, 2) about ``centre``: a
    free fit where enough of the outline shows (and its radius is within
    ``small_tol``, or ``FREE_FIT_RADIUS_TOL``, of what is expected), else one
    of known radius."""
    pts = centre + rays
    # (a free fit keeps at most all the rays' points)
    res = _robust_circle(pts, r_exp) if len(pts) >= FREE_FIT_MIN_SHARE * n_use \
        else None
    r_fix = r_exp * radius_scale
    # (a free fit as big as the camera says a ball is there is one ball too,
    # whatever the scale learnt from other balls: seed 1151's black, at rest,
    # fitted at 1.0 of its expected radius, was held at the 0.88 learnt from
    # moving balls, and its centre slid about within its outline by 2 px)
    if res is None or res[1] < FREE_FIT_MIN_SHARE * n_use or not (
            (1.0 - max(small_tol, FREE_FIT_RADIUS_TOL)) * min(r_fix, r_exp)
            <= res[0][2]
            <= (1.0 + FREE_FIT_RADIUS_TOL) * max(r_fix, r_exp)):
        # a short arc (a ball against others, behind or in front of it): its
        # radius is known, so only the centre is fitted
        res = _fixed_circle(pts, r_fix, centre)
    return res


FALLBACK_FIT = 0.6
"""Least quality of a fit to the foreground alone that stands for one that failed
with the contrast's edges (``BallDetector._refit_at_edges``)."""

FREE_FIT_MIN_SHARE = 0.7
"""A circle's radius is fitted only when this share of the rays finds its edge;
with less of the outline showing, the expected radius is held fixed."""


FREE_FIT_RADIUS_TOL = 0.1
"""A free fit whose radius is more than this share larger than the expected one
(or the scaled one) is taken for a fit to more than one ball's outline."""

FREE_FIT_SMALL_TOL = 0.25
"""Where the camera looks down on the balls (``_looks_down``), a free fit up to
this share smaller than expected is one ball: a lit white's contrast falls
steepest inside its outline, all round (at 0.84-0.94 of its radius in the
simulator's overhead views, where coloured balls' fall at 0.95-1.0). Held at
the expected radius instead, half its edges missed the circle, and the white
was missed at one rendered place in six. (Looking across the table, the
white's shaded lower part makes the smaller circle sit high: its centre was
off by 15 mm in one fit in ten, and the fit is held at the expected radius
there.)"""

LOOKING_DOWN = 0.6
"""Median length of ``TableView.down_px`` over the bed below which the camera
looks down on the balls (the simulator's overhead cameras: 0.27-0.40; its
broadcast ones: 0.89-0.95)."""


def _looks_down(view: TableView) -> bool:
    """Does the camera look down on the balls (``LOOKING_DOWN``)?"""
    spec = view.cal.spec
    grid = np.array([[x, y] for x in np.linspace(-1.0, 1.0, 9)
                     for y in np.linspace(-1.0, 1.0, 5)]) * (
        spec.half_length - spec.ball_radius, spec.half_width - spec.ball_radius)
    px = view.to_image(grid)
    length = np.linalg.norm(view.down_px(px[np.isfinite(px).all(axis=1)]), axis=1)
    return bool(len(length)) and float(np.median(length)) < LOOKING_DOWN


def _fixed_circle(
    pts: np.ndarray, radius: float, start: np.ndarray
) -> tuple[tuple[float, float, float], int] | None:
    """Centre of a circle of known ``radius`` through edge points ``pts`` (M, 2),
    outliers dropped (Gauss-Newton from ``start``); None for too short an arc."""
    if len(pts) < 6:
        return None
    cx, cy = float(start[0]), float(start[1])
    px, py = pts[:, 0], pts[:, 1]
    gate = 0.3 * radius
    for _ in range(8):
        dx, dy = px - cx, py - cy
        dist = np.maximum(np.sqrt(dx * dx + dy * dy), 1e-9)
        res = dist - radius
        keep = np.abs(res) < gate
        if np.count_nonzero(keep) < 6:
            return None
        ux, uy, rk = dx[keep] / dist[keep], dy[keep] / dist[keep], res[keep]
        # normal equations of the 2-parameter Gauss-Newton step
        a, b, c2 = ux @ ux, ux @ uy, uy @ uy
        det = a * c2 - b * b
        if det < 1e-9:
            return None
        gx, gy = ux @ rk, uy @ rk
        sx, sy = (c2 * gx - b * gy) / det, (a * gy - b * gx) / det
        cx, cy = cx + sx, cy + sy
        gate = max(0.8, 0.12 * radius)
        if sx * sx + sy * sy < 1e-4:
            break
    c = np.array([cx, cy])
    d = pts - c
    keep = np.abs(np.linalg.norm(d, axis=1) - radius) < max(0.8, 0.12 * radius)
    ang = np.sort(np.arctan2(d[keep, 1], d[keep, 0]))
    if len(ang) < 6:
        return None
    gaps = np.diff(np.concatenate([ang, ang[:1] + 2 * np.pi]))
    if 2 * np.pi - gaps.max() < np.radians(100):
        return None
    return (float(c[0]), float(c[1]), float(radius)), int(keep.sum())


EDGE_SEARCH_PX = 2.5
"""How far (px) beyond the foreground's edge ``_steepest_fall`` looks."""

EDGE_STEP_PX = 0.5
"""Sample spacing (px) along a ray in ``_steepest_fall``."""


def _steepest_fall(
    contrast: np.ndarray, origins: np.ndarray, dirs: np.ndarray, lo: np.ndarray,
    hi: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Edge radius on each ray ``origins + dirs * t`` (M rays): the steepest fall
    of ``contrast`` between radii ``lo`` and ``hi`` (M,), found to a fraction of
    an ``EDGE_STEP_PX`` sample (parabola).

    Returns:
        ((M,) radii, (M,) bool: the contrast falls there by a good share of its
        value inside, as at a ball's edge).
    """
    m = len(lo)
    if m == 0:
        return np.zeros(0), np.zeros(0, bool)
    step = EDGE_STEP_PX
    span = max(float(np.max(hi - lo)), 4 * step)
    t = np.arange(0.0, span + step + 1e-9, step, dtype=np.float32)
    rad = lo[:, None].astype(np.float32) + t[None]  # (M, T)
    px = (origins[:, 0, None] + dirs[:, 0, None] * rad).astype(np.float32)
    py = (origins[:, 1, None] + dirs[:, 1, None] * rad).astype(np.float32)
    prof = cv2.remap(contrast, px, py, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)
    fall = prof[:, :-2] - prof[:, 2:]  # (M, T-2), at t[1:-1]
    fall[rad[:, 1:-1] > hi[:, None]] = -1e9
    k = np.clip(fall.argmax(axis=1), 1, fall.shape[1] - 2)
    rows = np.arange(m)
    b = fall[rows, k].astype(np.float64)
    a = fall[rows, k - 1].astype(np.float64)
    c = fall[rows, k + 1].astype(np.float64)
    a = np.where(a > -1e8, a, b)
    c = np.where(c > -1e8, c, b)
    den = a - 2 * b + c
    off = np.where(den < -1e-9, 0.5 * (a - c) / np.where(den < -1e-9, den, -1.0),
                   0.0)
    edge = lo + t[1:-1][k] + np.clip(off, -1.0, 1.0) * step
    last = np.clip(np.round((hi - lo) / step).astype(int), 0, len(t) - 1)
    outer = prof[rows, last]
    real = (b > 0.0) & (prof[:, 0] - outer > 0.3 * np.maximum(prof[:, 0], 1.0))
    return edge, real


def _robust_circle(
    pts: np.ndarray, r_expected: float
) -> tuple[tuple[float, float, float], int] | None:
    """Least-squares circle through ``pts`` (M, 2) with outliers dropped."""
    if len(pts) < 8:
        return None
    keep = np.ones(len(pts), bool)
    circle = None
    px, py = pts[:, 0], pts[:, 1]
    tol = max(0.8, 0.12 * r_expected)
    for _ in range(3):
        n_keep = int(np.count_nonzero(keep))
        if n_keep < 8:
            return None
        # algebraic (Kasa) fit about the points' mean
        kx, ky = px[keep], py[keep]
        mx, my = float(kx.sum()) / n_keep, float(ky.sum()) / n_keep
        u, v = kx - mx, ky - my
        suu, svv, suv = u @ u, v @ v, u @ v
        uu, vv = u * u, v * v
        ru = 0.5 * float(u @ uu + u @ vv)
        rv = 0.5 * float(v @ vv + v @ uu)
        det = suu * svv - suv * suv
        if det <= 1e-12:
            return None
        cu = (ru * svv - rv * suv) / det
        cv = (rv * suu - ru * suv) / det
        rr = float(np.sqrt(cu * cu + cv * cv + (suu + svv) / n_keep))
        cx, cy = cu + mx, cv + my
        circle = (float(cx), float(cy), rr)
        res = np.abs(np.sqrt((px - cx) ** 2 + (py - cy) ** 2) - rr)
        new = res < tol
        if np.count_nonzero(new) < 8 or np.array_equal(new, keep):
            keep = new if np.count_nonzero(new) >= 8 else keep
            break
        keep = new
    if circle is None or not (0.6 * r_expected < circle[2] < 1.45 * r_expected):
        return None
    return circle, int(keep.sum())


class BallDetector:
    """The standard detector: cloth model, distance-transform peaks, circle fits,
    patch classification.

    Args:
        cal: Calibration of the camera.
        classifier: Ball/kind classifier; the default one (ONNX model if present,
            colour rules otherwise) when None.
        constrain: On full-frame searches, make the kinds obey the snooker counts
            (``vision.identify.constrain_kinds``).

    Without the model, the colour rules learn this table's colours on the first
    full search where at least three colours stand on their spots
    (``learn_colours``).
    """

    def __init__(
        self, cal: Calibration, classifier: BallClassifier | None = None,
        constrain: bool = True,
    ) -> None:
        self.constrain = constrain
        self.colours_learned = False
        self.view = TableView(cal)
        self.classifier = classifier if classifier is not None else default_classifier()
        self.cloth: ClothModel | None = None
        self._highlight_offset: np.ndarray | None = None
        self._highlight_strength: float | None = None
        self._highlight_samples: deque[tuple[np.ndarray, np.ndarray, float]] = (
            deque(maxlen=400))
        self._samples_cache: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._radius_scale = 1.0
        self._small_tol = FREE_FIT_SMALL_TOL if _looks_down(self.view) else 0.0

    def learn(self, image: np.ndarray) -> ClothModel:
        """Learn the cloth from a frame, then what does not move at the bed's
        edges (``ClothModel.with_edges``)."""
        self.cloth = ClothModel.learn(image, self.view).with_edges(image, self.view)
        return self.cloth

    def detect(
        self,
        image: np.ndarray,
        frame: int = -1,
        regions: Sequence[tuple[int, int, int, int]] | None = None,
    ) -> Detections:
        """Balls in ``image`` (BGR uint8 frame), optionally only in pixel boxes."""
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError("detect: need an (H, W, 3) BGR image")
        if (image.shape[1], image.shape[0]) != self.view.cal.image_size:
            raise ValueError(
                f"detect: frame is {image.shape[1]}x{image.shape[0]}, the calibration "
                f"{self.view.cal.image_size[0]}x{self.view.cal.image_size[1]}"
            )
        learning = self.cloth is None
        if learning:
            self.learn(image)
        rx0, ry0, rx1, ry1 = self.view.roi
        boxes = [(rx0, ry0, rx1, ry1)] if regions is None else list(regions)
        found_px: list[np.ndarray] = []
        found_r: list[np.ndarray] = []
        found_q: list[np.ndarray] = []
        found_s: list[np.ndarray] = []
        for bx0, by0, bx1, by1 in boxes:
            x0, y0 = max(bx0, rx0), max(by0, ry0)
            x1, y1 = min(bx1, rx1), min(by1, ry1)
            if x1 - x0 < 4 or y1 - y0 < 4:
                continue
            c, r, q, sp = self._detect_box(image, (x0, y0, x1, y1))
            found_px.append(c)
            found_r.append(r)
            found_q.append(q)
            found_s.append(sp)
        if not found_px:
            return Detections.empty(frame)
        xy = np.concatenate(found_px)
        rad = np.concatenate(found_r)
        if learning:
            assert self.cloth is not None
            self.cloth = self.cloth.clear_of(xy, rad)
        qual = np.concatenate(found_q)
        streak_probs = np.concatenate(found_s)
        xy_mm = self.view.to_table(xy)
        if regions is not None and len(xy) > 1:
            one = _apart(xy_mm, qual, SAME_BALL * self.view.ball_radius_mm)
            xy, rad, qual, streak_probs, xy_mm = (
                xy[one], rad[one], qual[one], streak_probs[one], xy_mm[one])
        keep = self._on_table(xy_mm)
        if len(xy) > 1:
            keep &= _apart(xy_mm, qual, MIN_APART * self.view.ball_radius_mm)
        xy, rad, qual, xy_mm = xy[keep], rad[keep], qual[keep], xy_mm[keep]
        streak_probs = streak_probs[keep]
        probs = self.classifier.classify(image, xy, rad, self.cloth, qual)
        if regions is None and not self.colours_learned and isinstance(
            self.classifier, ColourRules
        ):
            if self.learn_colours(image, xy, rad, xy_mm, probs):
                probs = self.classifier.classify(image, xy, rad, self.cloth, qual)
        streak = ~np.isnan(streak_probs[:, 0])
        probs[streak] = streak_probs[streak]
        # over a pocket's opening the dark hole makes ball-like discs: a ball
        # in the jaws must be sure of its colour to stand alone (and takes no
        # kind's slot); one less sure is only a sighting of a ball held there
        keep = probs[:, -1] < 0.5
        xy, rad, xy_mm, probs = xy[keep], rad[keep], xy_mm[keep], probs[keep]
        sure = self._sure_enough(xy_mm, probs)
        if regions is None and self.constrain and sure.any():
            probs[sure] = constrain_kinds(probs[sure])
        return Detections(xy, xy_mm, rad, probs, frame=frame, held_only=~sure,
                          range_mm=self.view.range_mm(xy_mm))

    def cover(self, image: np.ndarray, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) share of a ball's disc at each of the (N, 2) table places (mm)
        that ``image`` (the BGR frame) shows as foreground: what differs from
        the cloth, and from the jaws and holes as the first frame showed them.
        NaN where the place cannot be seen: its centre out of the view, or the
        disc wholly behind a cushion from the camera (a disc the view's edge
        cuts is read on what of it lies within)."""
        out = np.full(len(xy_mm), np.nan)
        if self.cloth is None or not len(xy_mm):
            return out
        rx0, ry0, rx1, ry1 = self.view.roi
        px = self.view.to_image(np.asarray(xy_mm, np.float64).reshape(-1, 2))
        for i, (c, r) in enumerate(zip(px, self.view.radius_px(px), strict=True)):
            if not np.all(np.isfinite(c)) or not np.isfinite(r):
                continue
            if not (rx0 <= c[0] < rx1 and ry0 <= c[1] < ry1):
                continue
            # (a disc the view's edge cuts is read on what of it lies within:
            # seed 3045's red, potted from deep in an overhead view's
            # top-right jaws, was held there for good, because three places
            # it could have stopped at lay a pixel or two over that edge and
            # could not be read bare)
            pad = int(r) + 2
            x0, y0 = max(int(c[0]) - pad, rx0), max(int(c[1]) - pad, ry0)
            x1 = min(int(c[0]) + pad + 1, rx1)
            y1 = min(int(c[1]) + pad + 1, ry1)
            fg = self.cloth.foreground(image[y0:y1, x0:x1], (x0 - rx0, y0 - ry0),
                                       jaws=True)
            hidden = self.view.occluder_mask[y0 - ry0:y1 - ry0, x0 - rx0:x1 - rx0]
            out[i] = disc_coverage(fg, (c - [x0, y0])[None], np.array([r]), hidden,
                                   unseen=np.nan)[0]
        return out

    def _sure_enough(self, xy_mm: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """(N,) bool: candidates at (N, 2) table mm, with (N, 9) kind
        probabilities, sure enough of their kind for where they are: any on the
        bed, ``JAWS_SURE`` in a corner's jaws, ``DEEP_JAWS_SURE`` deeper."""
        sure = probs[:, :-1].max(axis=1)
        return (self.view.on_bed(xy_mm, margin_mm=BED_MARGIN_MM)
                | ((sure >= JAWS_SURE)
                   & self.view.on_bed(xy_mm, margin_mm=JAWS_MARGIN_MM))
                | ((sure >= DEEP_JAWS_SURE) & ~self._on_rim(xy_mm)))

    def _on_table(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: centres where a ball can be: on the bed, or in a corner
        pocket's jaws short of its fall (``BED_MARGIN_MM``,
        ``DEEP_JAWS_MARGIN_MM``; a middle pocket's opening has no jaws to stop
        in, and makes false discs), or read there over the fall's rim
        (``FALL_RIM_MM``)."""
        spec = self.view.cal.spec
        if len(xy_mm) == 0:
            return np.zeros(0, bool)
        out = self.view.on_bed(xy_mm, margin_mm=BED_MARGIN_MM)
        jaws = self.view.on_bed(xy_mm, margin_mm=DEEP_JAWS_MARGIN_MM) & ~out
        for i in np.flatnonzero(jaws):
            out[i] = spec.in_corner_jaws((float(xy_mm[i, 0]), float(xy_mm[i, 1])))
        return out | self._on_rim(xy_mm)

    def _on_rim(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: centres less than ``FALL_RIM_MM`` inside a corner
        pocket's fall, by its mouth (``TableSpec.inside_corner_fall``)."""
        spec = self.view.cal.spec
        inside = np.array([spec.inside_corner_fall((float(x), float(y)))
                           for x, y in xy_mm])
        return (inside >= 0.0) & (inside < FALL_RIM_MM)

    def learn_colours(
        self,
        image: np.ndarray,
        xy_px: np.ndarray,
        radius_px: np.ndarray,
        xy_mm: np.ndarray,
        probs: np.ndarray,
    ) -> bool:
        """Learn the colour rules' prototypes from the footage itself.

        Balls standing on the colours' spots (within 0.4 ball radius) are taken to
        be those colours (the table at the start of a frame); reds and the white are
        taken where the first guess is sure (P > 0.8) and the constraint agrees.
        Only for ``ColourRules`` (the ONNX model needs no tuning).

        Returns:
            True when prototypes were learned (at least three colours on spots).
        """
        rules = self.classifier
        if not isinstance(rules, ColourRules) or len(xy_px) == 0:
            return False
        spec = self.view.cal.spec
        kinds = np.full(len(xy_px), -1)
        for name, spot in spec.spots.items():
            d = np.linalg.norm(xy_mm - np.asarray(spot), axis=1)
            j = int(np.argmin(d))
            if d[j] < 0.4 * spec.ball_radius:
                kinds[j] = KINDS.index(BallKind(name))
        if (kinds >= 0).sum() < 3:
            return False
        sure = constrain_kinds(probs)
        top = sure[:, :NONE_CLASS].argmax(1)
        for k in (BallKind.RED, BallKind.WHITE):
            sel = (kinds < 0) & (top == KINDS.index(k)) & (
                sure[np.arange(len(top)), top] > 0.8)
            kinds[sel] = KINDS.index(k)
        use = kinds >= 0
        feats = ball_colour_features(image, xy_px[use], radius_px[use],
                                     self.cloth.local_bgr(xy_px[use]))
        rules.learn(feats, kinds[use])
        self.colours_learned = True
        return True

    def _detect_box(
        self, image: np.ndarray, box: tuple[int, int, int, int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Candidates in one pixel box: (N, 2) image px centres, (N,) radii px,
        (N,) fit qualities, and (N, 9) float32 kind probabilities of those that
        are streaks (``_streaks``; NaN rows: fitted balls, for the classifier)."""
        assert self.cloth is not None
        x0, y0, x1, y1 = box
        rx0, ry0 = self.view.roi[:2]
        fg = self.cloth.foreground(image[y0:y1, x0:x1], (x0 - rx0, y0 - ry0))
        bed = self.view.ball_mask[y0 - ry0 : y1 - ry0, x0 - rx0 : x1 - rx0]
        hidden = self.view.occluder_mask[y0 - ry0 : y1 - ry0, x0 - rx0 : x1 - rx0]
        fg *= bed
        mask = (fg >= 0.5).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        rmin = float(self.view.radius_px(np.array([[x0, y0], [x1, y1]])).min())
        peaks = _peaks(dist, max(rmin, 3.0))
        if len(peaks) == 0:
            return (np.zeros((0, 2)), np.zeros(0), np.zeros(0),
                    np.zeros((0, NONE_CLASS + 1), np.float32))
        full = peaks + np.array([x0, y0])
        r_exp = self.view.radius_px(full)
        dval = dist[peaks[:, 1].astype(int), peaks[:, 0].astype(int)]
        ok = (r_exp > 1.5) & (dval >= 0.4 * r_exp)
        peaks, r_exp, dval = peaks[ok], r_exp[ok], dval[ok]
        peaks, r_exp, _ = _nms(peaks, r_exp, dval)
        con = self.cloth.contrast(image[y0:y1, x0:x1], (x0 - rx0, y0 - ry0))
        c, r, q = fit_circles(fg, peaks, r_exp, None, contrast=con,
                              radius_scale=self._radius_scale, hidden=hidden,
                              small_tol=self._small_tol)
        # free fits to whole outlines: the radius scale. (Not the refits to the
        # foreground alone, whose edge lies farther out: seed 1701's white,
        # refitted at 1.11 of its expected radius by the right cushion, drew the
        # scale there alone; off the cushion, fitted on the contrast's edges,
        # no fit held at that radius, and it went unseen for 25 frames. Nor
        # the white's free fits, smaller than ``FREE_FIT_RADIUS_TOL`` allows.)
        whole = (q >= 0.9) & (r >= (1.0 - FREE_FIT_RADIUS_TOL) * r_exp * min(
            self._radius_scale, 1.0))
        if whole.any():
            ratio = float(np.median(r[whole] / r_exp[whole]))
            self._radius_scale = 0.8 * self._radius_scale + 0.2 * ratio
        c, r, q = self._refit_at_edges(fg, peaks, r_exp, (c, r, q), hidden,
                                       (x0 - rx0, y0 - ry0))
        good = q >= 0.3
        c, r, q = c[good], r[good], q[good]
        if len(c) > 1:
            one = self._one_fit_a_ball(c + np.array([x0, y0]), q)
            c, r, q = c[one], r[one], q[one]
        c, r, q, dropped = self._add_highlight_seeds(
            image[y0:y1, x0:x1], mask, (x0, y0), c, r, q, (fg, con, hidden))
        n_kept = len(c)
        c, r, q = (np.concatenate([a, b]) for a, b in zip((c, r, q), dropped,
                                                           strict=True))
        # a ball is a filled disc: lines, arcs, spots and shadow edges are not
        disc = disc_coverage(fg, c, self.view.radius_px(c + np.array([x0, y0])),
                             hidden, blind=self.cloth.blind(
                                 image[y0:y1, x0:x1], (x0 - rx0, y0 - ry0)))
        keep = disc >= MIN_DISC_COVER
        # a fit dropped in a cluster stands where it is a ball apart on the
        # table from every candidate that stood (``MIN_APART``): a ball of the
        # cluster that no highlight seeded (seed 479's cue ball beside the
        # yellow, joined to it by the baulk line, fitted at 0.48, its own
        # highlight too faint on the white); a poor fit among the pack's balls
        # lies nearer one of them. Near ones that fit worse than it (seeds,
        # fitted to what shows of an outline) give way to it: seed 538's white
        # before the pink, fitted at 0.5, had given way to a seed fitted at 0.4,
        # 4 px off, 33 mm on the table.
        stood = keep & (np.arange(len(c)) < n_kept)
        mm = self.view.to_table(c + np.array([x0, y0]))
        apart = MIN_APART * self.view.ball_radius_mm
        for i in np.flatnonzero(keep[n_kept:]) + n_kept:
            near = stood & (np.linalg.norm(mm - mm[i], axis=1) < apart)
            if not np.all(q[near] < q[i]):
                keep[i] = False
                continue
            keep[near] = stood[near] = False
            stood[i] = True
        c, r, q = c[keep], r[keep], q[keep]
        lab, stats = cv2.connectedComponentsWithStats(mask)[1:3]
        # a ball cut by the box's edge (not the table's), or near it in a blob
        # as large as two balls cut there, is fitted off centre: the box round
        # its whole is searched when it matters
        rx1, ry1 = self.view.roi[2:]
        bx, by, bw, bh = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
        w, h = x1 - x0, y1 - y0
        # each side of the box that is not the table's: (blob at it, gap to it)
        sides = [(bx == 0, c[:, 0]) if x0 > rx0 else None,
                 (by == 0, c[:, 1]) if y0 > ry0 else None,
                 (bx + bw == w, w - c[:, 0]) if x1 < rx1 else None,
                 (by + bh == h, h - c[:, 1]) if y1 < ry1 else None]
        cut = np.zeros(len(stats), bool)
        edge = np.full(len(c), np.inf)
        for blob_at, gap in filter(None, sides):
            cut |= blob_at
            edge = np.minimum(edge, gap)
        cut[0] = False  # (the background)
        at = lab[np.clip(c[:, 1].astype(int), 0, h - 1),
                 np.clip(c[:, 0].astype(int), 0, w - 1)]
        cluster = stats[at, 4] >= 2 * np.pi * r**2  # (a chalk line is no cluster)
        whole = (edge >= CUT_MARGIN * r) | ((edge >= r) & ~(cut[at] & cluster))
        c, r, q = c[whole], r[whole], q[whole]
        sc, sr, sp, ends = _streaks(image[y0:y1, x0:x1], lab, stats, c, self.view,
                                    (x0, y0), self.cloth)
        c, r, q = c[~ends], r[~ends], q[~ends]
        # the classifier's kinds for fitted balls (NaN), the streak's for streaks
        probs = np.concatenate([np.full((len(c), NONE_CLASS + 1), np.nan, np.float32),
                                sp])
        return (np.concatenate([c, sc]) + np.array([x0, y0]), np.concatenate([r, sr]),
                np.concatenate([q, np.full(len(sc), STREAK_QUALITY)]), probs)

    def _refit_at_edges(
        self, fg: np.ndarray, peaks: np.ndarray, r_exp: np.ndarray,
        fits: tuple[np.ndarray, np.ndarray, np.ndarray], hidden: np.ndarray,
        offset: tuple[int, int],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Fits that failed on the contrast's edges near the bed's edges
        (``ClothModel.edge_fg``), made again on the foreground alone and kept
        where they fit well (``FALLBACK_FIT``; a cue's shaft makes poor fits).
        Before a cushion's face the contrast's fall scatters the edges of a
        ball whose lower half fades into its shadow (the white before a
        broadcast view's far cushion: a pixel's shift of the start made or
        broke its fit). Returns ``fits`` (centres, radii, qualities) with those
        refits in place of the failures."""
        c, r, q = fits
        edge = self.cloth.edge_fg if self.cloth is not None else None
        failed = np.flatnonzero(q == 0.0)
        if edge is None or not len(failed):
            return fits
        ox, oy = offset
        h, w = edge.shape
        near = []
        for i in failed:
            x, y, k = int(peaks[i, 0]) + ox, int(peaks[i, 1]) + oy, int(r_exp[i]) + 2
            near.append(bool(edge[max(y - k, 0):min(y + k, h),
                                  max(x - k, 0):min(x + k, w)].any()))
        failed = failed[np.array(near, bool)]
        if not len(failed):
            return fits
        c2, r2, q2 = fit_circles(fg, peaks[failed], r_exp[failed], None,
                                 radius_scale=self._radius_scale, hidden=hidden)
        good = q2 >= FALLBACK_FIT
        failed = failed[good]
        c, r, q = c.copy(), r.copy(), q.copy()
        c[failed], r[failed], q[failed] = c2[good], r2[good], q2[good]
        return c, r, q

    def _add_highlight_seeds(
        self,
        crop: np.ndarray,
        mask: np.ndarray,
        origin: tuple[int, int],
        c: np.ndarray,
        r: np.ndarray,
        q: np.ndarray,
        maps: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray,
               tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Balls inside clusters found from their specular highlights.

        Balls near one another show the lights' reflection at about the same
        place relative to their centres (in radii); across the table it moves
        (other lamps, other angles: in a broadcast view from 0.75 radius above the
        centre in baulk to 0.4 at the pack). The offset is measured on fitted
        balls and kept with their table positions (``_offsets_at``). Each highlight
        blob inside a cluster larger than a ball that no candidate explains yet
        becomes a candidate at highlight - offset, then is fitted to whatever of
        its outline shows (``fit_circles`` with the radius known); ``maps`` are
        the crop's foreground, contrast and occluder maps.

        Returns:
            The candidates (centres, radii, qualities), and those dropped: poor
            fits inside clusters.
        """
        none = c[:0], r[:0], q[:0]
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        r_med = float(np.median(r)) if len(r) else 6.0
        big = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= 1.6 * np.pi * r_med**2)
        if len(big) == 0 and self._highlight_offset is not None:
            return c, r, q, none  # no cluster here, and the offset is known
        hl, strength = find_highlights(crop, mask, r_med)
        if len(hl) == 0:
            return c, r, q, none
        offsets, strengths = [], []
        fit = q >= 0.45 if self._highlight_offset is not None else q >= 0.6
        at_mm = self.view.to_table(c[fit] + np.array(origin)) if fit.any() else \
            np.zeros((0, 2))
        if self._highlight_offset is None:
            expect = np.zeros((int(fit.sum()), 2))
        else:
            expect = self._offsets_at(at_mm, self._highlight_offset)
        for ci, ri, qi, mm, off in zip(c[fit], r[fit], q[fit], at_mm, expect,
                                       strict=True):
            # its own highlight: near where the offsets measured so far put it
            # (a ball in the pack has its neighbours' highlights close by)
            reach = (0.85 if self._highlight_offset is None else 0.3) * ri
            d = np.linalg.norm(hl - (ci + off * ri), axis=1)
            j = int(np.argmin(d))
            if d[j] < reach:
                offsets.append((hl[j] - ci) / ri)
                strengths.append(strength[j])
                if np.all(np.isfinite(mm)):
                    self._highlight_samples.append((mm, offsets[-1], float(qi)))
                    self._samples_cache = None
        if offsets:
            new = np.median(np.array(offsets), axis=0)
            old = self._highlight_offset
            self._highlight_offset = new if old is None else 0.7 * old + 0.3 * new
            s_new = float(np.median(strengths))
            s_old = self._highlight_strength
            self._highlight_strength = s_new if s_old is None else (
                0.7 * s_old + 0.3 * s_new)
        off = self._highlight_offset
        if off is None or self._highlight_strength is None:
            return c, r, q, none
        strong = strength >= 0.45 * self._highlight_strength
        hl = hl[strong]
        # which blobs are clusters (bigger than one ball)
        full = hl + np.array(origin)
        r_exp = self.view.radius_px(full)
        hi, wi = mask.shape
        lab = labels[np.clip(hl[:, 1].astype(int), 0, hi - 1),
                     np.clip(hl[:, 0].astype(int), 0, wi - 1)]
        cluster = np.zeros(n, bool)
        balls = np.zeros(n)  # blob areas in ball areas
        for k in range(len(hl)):
            area = stats[lab[k], cv2.CC_STAT_AREA]
            balls[lab[k]] = area / (np.pi * r_exp[k] ** 2)
            if lab[k] and balls[lab[k]] >= 1.6:
                cluster[lab[k]] = True
        # a cluster of balls shows a highlight a ball; a player's dark sleeve, a
        # cue and a hand make far fewer: there a seed must fit an outline
        n_hl = np.bincount(lab, minlength=n)
        of_balls = balls <= MAX_AREA_PER_HIGHLIGHT * np.maximum(n_hl, 1)
        if not cluster.any():
            return c, r, q, none
        # in clusters, only well-fitted candidates stand; highlights do the rest
        ci = np.clip(np.round(c).astype(int), 0, [wi - 1, hi - 1]) if len(c) else \
            np.zeros((0, 2), int)
        c_lab = labels[ci[:, 1], ci[:, 0]] if len(c) else np.zeros(0, int)
        keep = ~cluster[c_lab] | (q >= 0.6)
        if not keep.all():
            # but a lone ball joined to a neighbour only by a thin line (the
            # baulk line, a cue) stands: it is alone in the blob without them
            k_open = max(3, round(r_med) | 1)
            thick = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(
                cv2.MORPH_ELLIPSE, (k_open, k_open)))
            _, t_lab, t_stats, _ = cv2.connectedComponentsWithStats(thick)
            t_at = t_lab[ci[:, 1], ci[:, 0]]
            lone = (t_at > 0) & (t_stats[t_at, cv2.CC_STAT_AREA] < 1.6 * np.pi * r**2)
            keep |= lone
        dropped = c[~keep], r[~keep], q[~keep]
        c, r, q = c[keep], r[keep], q[keep]
        add_c, add_r, add_must = [], [], []
        hl_off = np.tile(off, (len(hl), 1))
        in_cluster = cluster[lab] & (r_exp >= 1.5)
        if in_cluster.any():
            hl_off[in_cluster] = self._offsets_at(
                self.view.to_table(full[in_cluster]), off)
        # (explained: a candidate within 0.7 radius on the table, where balls
        # stand apart however much their images overlap)
        taken = list(self.view.to_table(c + np.array(origin)))
        seeds = hl - hl_off * r_exp[:, None]
        seeds_mm = self.view.to_table(seeds + np.array(origin))
        for k in np.argsort(-strength[strong]):
            if not cluster[lab[k]] or r_exp[k] < 1.5:
                continue
            seed, seed_mm = seeds[k], seeds_mm[k]
            if any(np.hypot(*(p - seed_mm)) < 0.7 * self.view.ball_radius_mm
                   for p in taken):
                continue
            taken.append(seed_mm)
            add_c.append(seed)
            add_r.append(r_exp[k])
            add_must.append(not of_balls[lab[k]])
        if not add_c:
            return c, r, q, dropped
        c2 = np.array(add_c)
        r2 = np.array(add_r)
        fg, con, hidden = maps
        fc, fr, fq = fit_circles(fg, c2, r2, None, iterations=1, contrast=con,
                                 radius_scale=self._radius_scale, hidden=hidden,
                                 small_tol=self._small_tol)
        fitted = (fq >= 0.3) & (np.linalg.norm(fc - c2, axis=1) < 0.5 * r2)
        c2[fitted], r2[fitted] = fc[fitted], fr[fitted]
        q2 = np.where(fitted, fq, SEED_QUALITY)
        ok = fitted | ~np.array(add_must)
        c, r, q = (np.concatenate([c, c2[ok]]), np.concatenate([r, r2[ok]]),
                   np.concatenate([q, q2[ok]]))
        if len(c) > 1:
            one = self._one_fit_a_ball(c + np.array(origin), q)
            c, r, q = c[one], r[one], q[one]
        return c, r, q, dropped

    def _one_fit_a_ball(self, xy_px: np.ndarray, q: np.ndarray) -> np.ndarray:
        """(N,) bool: of fits (image px) that converged onto one ball
        (``SAME_BALL``), the best."""
        return _apart(self.view.to_table(xy_px), q,
                      SAME_BALL * self.view.ball_radius_mm)

    def _offsets_at(self, xy_mm: np.ndarray, fallback: np.ndarray) -> np.ndarray:
        """(K, 2) highlight offsets, in radii, of balls centred at table points
        ``xy_mm`` (K, 2): the weighted median of the offsets measured within
        ``HIGHLIGHT_NEAR_MM`` (nearer and better fitted weigh more), else
        ``fallback`` (2,)."""
        out = np.tile(np.asarray(fallback, np.float64), (len(xy_mm), 1))
        if not self._highlight_samples or len(xy_mm) == 0:
            return out
        if self._samples_cache is None:
            self._samples_cache = tuple(
                np.array([s[k] for s in self._highlight_samples]) for k in range(3))
        pos, offs, qual = self._samples_cache
        dist = np.linalg.norm(xy_mm[:, None] - pos[None], axis=2)  # (K, S)
        w = np.where(dist < HIGHLIGHT_NEAR_MM,
                     qual[None] / (dist + 0.5 * self.view.ball_radius_mm), 0.0)
        has = w.sum(axis=1) > 0
        if has.any():
            w = w[has]
            for k in range(2):  # weighted medians, every row at once
                order = np.argsort(offs[:, k])
                cum = np.cumsum(w[:, order], axis=1)
                j = (cum < 0.5 * cum[:, -1:]).sum(axis=1)
                out[has, k] = offs[order[j], k]
        return out


CUT_MARGIN = 2.0
"""A ball nearer than its radius to a search box's edge (not the table's), or
nearer than this many radii in a blob as large as two balls cut by the edge
(touching balls), is dropped: its fit is pulled off centre. The tracker leaves
balls nearer than this many radii to a box's edge as they were."""
STREAK_LENGTH = 4.0
"""A blob at least this many ball radii long, and a ball wide, is a ball blurred by
its motion (the break's cue ball): its middle is the ball's centre mid-exposure.
Circles fitted on it are its ends."""
SHORT_STREAK = 2.8
"""A blob at least this many ball radii long (and less than ``STREAK_LENGTH``) is a
streak too when it reads as the white at both ends: a cue ball at 3 to 4 m/s in a
1/60 s exposure leaves a band 3.4 to 4 radii long whose blurred ends no circle
takes, or one the classifier calls no ball (a ball at rest: 2.0 to 2.2; seed
451's cue ball). Two balls overlapping in a broadcast view make such bands too
(seed 480's pink against a red): a band of colour, or of the white and a pale
colour, is left to the circles and the classifier."""
STREAK_FILL = 0.84
"""Least share of its bounding rectangle that a streak fills (a band with round
ends two radii apart or more fills 0.89 when sharp, 0.85 with a blur's soft edges
(seed 419's cue ball); two touching balls 0.79)."""
STREAK_QUALITY = 0.0
"""Fit quality of a streak's centre (no circle was fitted; fitted discs have 0.3 or
more)."""
STREAK_WHITE = 0.7
"""A streak whose colour, unmixed from the cloth's, has its weakest channel at least
this share of its strongest, and is ``STREAK_BRIGHT`` times as bright as the cloth
(channel means), is the white."""
STREAK_BRIGHT = 1.3
"""See ``STREAK_WHITE``."""


def _streaks(
    crop: np.ndarray, lab: np.ndarray, stats: np.ndarray, c: np.ndarray,
    view: TableView, origin: tuple[int, int], cloth: ClothModel,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Motion-blur streaks: balls moving several of their radii in the exposure.

    Such a ball leaves a straight band one ball wide with round ends, which no
    circle fits (a fit takes one end, half a ball). Each connected part of the
    box's foreground (``lab``: (H, W) int32 labels, ``stats``: their
    ``cv2.connectedComponentsWithStats`` boxes and areas) filling its bounding
    rectangle as such a band does (two touching balls fill less) is one candidate
    at its centroid when it is ``STREAK_LENGTH`` long with at most one of the
    circles ``c`` ((N, 2) crop px) on it; when shorter (``SHORT_STREAK``) or with
    more circles on it, only if it is white from end to end. The circles on a
    streak are its ends.
    Its colour is unmixed from the cloth's: over the band, the ball covers on
    average its own area's share.

    Returns:
        Centres (M, 2) crop px, radii (M,) px, (M, 9) float32 kind probabilities
        (the white when the unmixed colour is a bright grey, else any other
        kind alike: a blur tells no colour surely), and (N,) bool: the centres
        ``c`` that were a streak's end.
    """
    out_c, out_r, out_p = [], [], []
    ends = np.zeros(len(c), bool)
    on = np.zeros(len(c), int)
    if len(c):
        iy = np.clip(c[:, 1].astype(int), 0, lab.shape[0] - 1)
        ix = np.clip(c[:, 0].astype(int), 0, lab.shape[1] - 1)
        on = lab[iy, ix]
    for i in range(1, len(stats)):
        x, y, w, h, area = stats[i]
        mid = np.array([x + w / 2, y + h / 2]) + np.asarray(origin, np.float64)
        r_exp = float(view.radius_px(mid[None])[0])
        if (np.hypot(w, h) < SHORT_STREAK * r_exp or min(x, y) == 0
                or x + w == lab.shape[1] or y + h == lab.shape[0]):
            continue  # (one cut by the box: its middle is not the ball's)
        part = lab == i
        ys, xs = np.nonzero(part)
        centre = np.array([xs.mean(), ys.mean()])
        full = centre + np.asarray(origin, np.float64)
        _, (a, b), _ = cv2.minAreaRect(np.stack([xs, ys], 1).astype(np.float32))
        width, length = min(a, b), max(a, b)
        band = (1.5 * r_exp <= width <= 2.6 * r_exp
                and area >= STREAK_FILL * width * length)
        if not band or length < SHORT_STREAK * r_exp:
            continue
        cover = min(1.0, np.pi * r_exp**2 / area)
        bg = cloth.local_bgr(full[None])[0].astype(np.float64)
        pixels = crop[part].astype(np.float64)
        is_white = _reads_white(pixels, bg, cover)
        if length < STREAK_LENGTH * r_exp or np.count_nonzero(on == i) > 1:
            # two balls overlapping in the image make such a band too, and
            # balls in a row one with circles fitted on them: only the white,
            # white from end to end, is taken for a blurred ball there
            off = np.stack([xs, ys], 1) - centre
            along = off @ np.linalg.eigh(off.T @ off)[1][:, -1]  # (its long axis)
            if not (is_white and _reads_white(pixels[along < 0], bg, cover)
                    and _reads_white(pixels[along >= 0], bg, cover)):
                continue
        white = KINDS.index(BallKind.WHITE)
        probs = np.zeros(NONE_CLASS + 1, np.float32)
        if is_white:
            probs[[white, NONE_CLASS]] = 0.95, 0.05
        else:
            probs[:NONE_CLASS] = 0.8 / (NONE_CLASS - 1)
            probs[[white, NONE_CLASS]] = 0.0, 0.2
        ends |= on == i
        out_c.append(centre)
        out_r.append(r_exp)
        out_p.append(probs)
    return (np.array(out_c).reshape(-1, 2), np.array(out_r),
            np.array(out_p, np.float32).reshape(-1, NONE_CLASS + 1), ends)


def _reads_white(pixels: np.ndarray, bg: np.ndarray, cover: float) -> bool:
    """Do (K, 3) BGR pixels of a blur band, where a ball covers on average the
    share ``cover`` over the cloth's (3,) colour ``bg``, unmix to the white
    (``STREAK_WHITE``, ``STREAK_BRIGHT``)?"""
    ball = (pixels.mean(axis=0) - (1 - cover) * bg) / cover
    return bool(ball.min() >= STREAK_WHITE * ball.max()
                and ball.mean() >= STREAK_BRIGHT * bg.mean())


def find_highlights(crop: np.ndarray, mask: np.ndarray, radius_px: float
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Specular highlights on foreground ``mask``: (N, 2) x, y (crop px) and (N,)
    strength (peak top-hat grey level).

    A highlight is a small spot much brighter (in the darkest channel: white
    light on any ball colour) than a ball's body around it; spots closer than half
    a radius (several lamps) are merged into their mean.
    """
    if crop.size == 0:
        return np.zeros((0, 2)), np.zeros(0)
    low = cv2.min(cv2.min(crop[..., 0], crop[..., 1]), crop[..., 2])
    k = max(3, round(0.7 * radius_px) | 1)
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    top = cv2.morphologyEx(low, cv2.MORPH_TOPHAT, ker).astype(np.float32)
    top *= cv2.erode(mask, np.ones((3, 3), np.uint8)) > 0
    strong = float(np.percentile(top[top > 0], 99.5)) if (top > 0).any() else 0.0
    thr = max(30.0, 0.35 * strong)
    spots = (top >= thr).astype(np.uint8)
    spots = cv2.dilate(spots, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (max(3, int(0.3 * radius_px) | 1),) * 2))
    n, labels, _stats, cents = cv2.connectedComponentsWithStats(spots, connectivity=8)
    if n <= 1:
        return np.zeros((0, 2)), np.zeros(0)
    peak = np.zeros(n, np.float32)
    np.maximum.at(peak, labels.ravel(), top.ravel())
    return cents[1:].astype(np.float64).reshape(-1, 2), peak[1:].astype(np.float64)


def _nms(
    peaks: np.ndarray, r_exp: np.ndarray, score: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drop peaks closer than 0.8 radius to a stronger one."""
    order = np.argsort(-score)
    kept: list[int] = []
    for i in order:
        if all(
            np.hypot(*(peaks[i] - peaks[j])) >= 0.8 * r_exp[i] for j in kept
        ):
            kept.append(int(i))
    idx = np.array(kept, dtype=int)
    return peaks[idx].reshape(-1, 2), r_exp[idx], score[idx]


def _apart(xy_mm: np.ndarray, q: np.ndarray, min_mm: float) -> np.ndarray:
    """(N,) bool: the candidates kept, best quality first, so that no two centres
    lie closer than ``min_mm`` on the table (balls cannot overlap there, however
    much their images do)."""
    close = np.linalg.norm(xy_mm[:, None] - xy_mm[None], axis=2) < min_mm
    out = np.zeros(len(q), bool)
    for i in np.argsort(-q, kind="stable"):
        out[i] = not (close[i] & out).any()
    return out
