"""Automatic calibration from one frame: find the table without clicks.

Steps: learn the cloth's colour (the dominant saturated hue near the middle of the
frame, with thresholds from its own spread), take the largest cloth region and its
convex outline (players, cues and score bars only dent it), fit the four outer
boundary lines, then search inwards along many short profiles for the cushion nose
(where the cushion top ends: the bed edge, or the top of the cushion face when the
face is visible) and fit each nose line robustly. The four noses meet at the playing
area's corners, which lie in the plane of the cushion noses. Which side is which is
decided from the image: the middle pockets dent the long sides, and the baulk end
shows the baulk line, the D and the balls on the yellow/brown/green spots. The
camera pose from that homography (and a focal-length estimate) gives the cloth-plane
mapping; near overhead, where the focal length cannot be estimated, the edges next
to the bed give the lens distortion (from their bow) and the table, and the baulk
line and the D their height above the cloth (``_overhead_fit``). Anything doubtful
raises ``CalibrationError`` instead of guessing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.bars import WORK_WIDTH, ScoreBar, find_bars, hide_bars
from calibration.mapping import (
    Calibration,
    CalibrationError,
    CameraPose,
    apply_homography,
    check_orientation,
    default_focal_px,
    pose_from_homography,
)
from calibration.refine import GROUP_NAMES, Camera8, Refinement, refine
from calibration.table import CUSHION_NOSE_HEIGHT_MM, TableSpec, table_by_name
from calibration.verify import Verdict, clothlike_map, lit_map, verify

CORNER_ORDER = ("baulk_left", "baulk_right", "top_right", "top_left")
"""Table corners in the order the outline is walked (anticlockwise on screen)."""


@dataclass(frozen=True)
class TableOutline:
    """The playing area's outline found in a frame.

    Attributes:
        corners_px: (4, 2) float64 pixels where the cushion-nose lines meet, in
            screen-anticlockwise order starting anywhere (not yet oriented).
        lines: (4, 3) float64 nose lines ``a u + b v + c = 0`` (unit normals), side
            i joining corner i and corner i+1.
        line_rms_px: (4,) float64 RMS distance of each side's edge samples, px.
        inlier_fraction: (4,) float64 share of each side's samples on its line.
        mask: uint8 cloth mask at working scale (1 = cloth).
        scale: Working-scale pixels per full-scale pixel.
        inner_edges: Per side, (N, 2) float64 px of the edge next to the bed (the
            bed-side edge of the nose's dark line or of a visible face).
        searches: Per side, where its edges were looked for: the (N, 2) px base
            points, the inward unit normal and the distance to the opposite side.
        value: (H, W) float32 the frame's brightness (HSV value), smoothed.
        bars: The TV score bars in the frame (``calibration.bars``).
    """

    corners_px: np.ndarray
    lines: np.ndarray
    line_rms_px: np.ndarray
    inlier_fraction: np.ndarray
    mask: np.ndarray
    scale: float
    inner_edges: tuple[np.ndarray, ...] = ()
    searches: tuple[tuple[np.ndarray, np.ndarray, float], ...] = ()
    value: np.ndarray | None = None
    bars: tuple[ScoreBar, ...] = ()


# ------------------------------------------------------------------ cloth


def cloth_mask(
    image: np.ndarray, bars: tuple[ScoreBar, ...] = ()
) -> tuple[np.ndarray, float]:
    """Cloth mask of ``image`` (BGR uint8) at working scale, without the score
    ``bars`` found in it (``calibration.bars``).

    Returns:
        (mask uint8 0/1 of the largest cloth region, scale = work px per image px).

    Raises:
        CalibrationError: no dominant cloth colour or too small a region.
    """
    w = image.shape[1]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    sh, sw = hue.shape
    centre = (slice(sh // 5, sh - sh // 5), slice(sw // 5, sw - sw // 5))
    cand = (sat[centre] > 60) & (val[centre] > 40)
    if cand.sum() < 0.05 * cand.size:
        raise CalibrationError("no cloth: too few saturated colours in the frame")
    hist = np.bincount(hue[centre][cand].ravel(), minlength=180).astype(np.float64)
    hist = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), np.ones(5), "valid")
    peak = int(np.argmax(hist))
    if hist[peak] < 0.15 * cand.size * 5 / 5:
        raise CalibrationError(
            "no cloth: no dominant colour in the middle of the frame"
        )
    # hue tolerance from the peak's own spread (where it falls under 4% of the peak)
    tol = 4
    while (
        tol < 20
        and hist[(peak + tol) % 180] + hist[(peak - tol) % 180] > 0.08 * hist[peak]
    ):
        tol += 1
    tol += 3
    dh = np.abs(hue.astype(np.int16) - peak)
    dh = np.minimum(dh, 180 - dh)
    near = dh <= tol
    ref = near[centre] & cand
    s_med = float(np.median(sat[centre][ref]))
    v_med = float(np.median(val[centre][ref]))
    mask = near & (sat > 0.4 * s_med) & (val > 0.22 * v_med)
    # a bar of the cloth's hue would join the cloth region
    mask = hide_bars(mask, bars, v_med, scale)
    mask = mask.astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n < 2:
        raise CalibrationError("no cloth region found")
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[k, cv2.CC_STAT_AREA] < 0.04 * sh * sw:
        raise CalibrationError("cloth region too small: is the table in view?")
    return (labels == k).astype(np.uint8), scale


def _line_through(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Line (a, b, c) with unit normal through points p and q."""
    d = q - p
    n = np.array([-d[1], d[0]]) / max(np.hypot(*d), 1e-12)
    return np.array([n[0], n[1], -n @ p])


def _intersect(l1: np.ndarray, l2: np.ndarray) -> np.ndarray:
    """Intersection point of two lines (a, b, c)."""
    p = np.cross(l1, l2)
    if abs(p[2]) < 1e-12:
        raise CalibrationError("two table sides are parallel in the image")
    return p[:2] / p[2]


def _fit_line_ransac(
    pts: np.ndarray, tol: float, rng: np.random.Generator, iters: int = 200
) -> tuple[np.ndarray, np.ndarray]:
    """Robust line (a, b, c) through ``pts`` (N, 2) and its inlier mask."""
    n = len(pts)
    pairs = rng.integers(0, n, size=(iters, 2))
    d = pts[pairs[:, 1]] - pts[pairs[:, 0]]
    norm = np.hypot(d[:, 0], d[:, 1])
    ok = norm > 1e-9
    normals = np.column_stack([-d[ok, 1], d[ok, 0]]) / norm[ok, None]
    offsets = -np.sum(normals * pts[pairs[ok, 0]], axis=1)
    if len(normals) == 0:
        raise CalibrationError("no line fits the cushion edge")
    counts = np.abs(normals @ pts.T + offsets[:, None]) < tol
    best = counts[int(np.argmax(counts.sum(axis=1)))]
    if best.sum() < 2:
        raise CalibrationError("no line fits the cushion edge")
    sel = pts[best]
    for _ in range(2):  # least squares on inliers, re-select
        c = sel.mean(axis=0)
        _, _, vt = np.linalg.svd(sel - c, full_matrices=False)
        normal = vt[1]
        line = np.array([normal[0], normal[1], -normal @ c])
        best = np.abs(pts @ line[:2] + line[2]) < tol
        sel = pts[best]
        if len(sel) < 2:
            raise CalibrationError("no line fits the cushion edge")
    return line, best


def _drop_to_four(poly: np.ndarray, area: float) -> np.ndarray | None:
    """The (4, 2) polygon left after dropping the vertices of ``poly`` (N, 2) that
    cut the least area off it (a ball or a hand on a cushion bulging the cloth
    region), or None when that cuts more than 1 % of ``area``."""
    poly = poly.copy()
    cut = 0.0
    while len(poly) > 4:
        prev, nxt = np.roll(poly, 1, axis=0), np.roll(poly, -1, axis=0)
        tri = 0.5 * np.abs(
            (poly[:, 0] - prev[:, 0]) * (nxt[:, 1] - prev[:, 1])
            - (nxt[:, 0] - prev[:, 0]) * (poly[:, 1] - prev[:, 1])
        )
        k = int(np.argmin(tri))
        cut += float(tri[k])
        poly = np.delete(poly, k, axis=0)
    return poly if cut <= 0.01 * area else None


def _outer_quad(mask: np.ndarray) -> np.ndarray:
    """Four outer corners (work px, (4, 2)) of the cloth region, anticlockwise."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    quad = None
    many = None
    for eps in (0.01, 0.015, 0.02, 0.03, 0.04, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
        if len(approx) < 4:
            break
        many = approx.reshape(-1, 2).astype(np.float64)
    if quad is None and many is not None:
        quad = _drop_to_four(many, cv2.contourArea(hull))
    if quad is None:
        raise CalibrationError("the cloth region is not four-sided")
    # the order of CORNER_ORDER: negative shoelace in (u, v) with v down
    area = 0.5 * np.sum(
        quad[:, 0] * np.roll(quad[:, 1], -1) - np.roll(quad[:, 0], -1) * quad[:, 1]
    )
    if area > 0:
        quad = quad[::-1]
    return quad


def _sample(img: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``img`` (H, W[, C]) at ``pts`` (..., 2) pixel positions.

    Positions outside the frame are clamped to its border.
    """
    h, w = img.shape[:2]
    x = np.clip(pts[..., 0], 0, w - 1.001)
    y = np.clip(pts[..., 1], 0, h - 1.001)
    x0 = x.astype(np.intp)
    y0 = y.astype(np.intp)
    fx = x - x0
    fy = y - y0
    if img.ndim == 3:
        fx = fx[..., None]
        fy = fy[..., None]
    a = img[y0, x0].astype(np.float32)
    b = img[y0, x0 + 1].astype(np.float32)
    c = img[y0 + 1, x0].astype(np.float32)
    d = img[y0 + 1, x0 + 1].astype(np.float32)
    top = a + (b - a) * fx
    return top + (c + (d - c) * fx - top) * fy


# ------------------------------------------------------------------ lens


def distort_k1(pts: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Apply radial distortion ``k1`` to undistorted pixels ``pts`` (N, 2).

    The model is OpenCV's with only k1, the principal point at the image centre and
    the focal length ``default_focal_px(size)``; any other focal length f takes
    ``k1 * (f / default_focal_px(size)) ** 2``.
    """
    c = 0.5 * np.array(size, np.float64)
    d = (np.asarray(pts, np.float64) - c) / default_focal_px(size)
    return c + (d * (1.0 + k1 * np.sum(d * d, axis=1, keepdims=True))) * (
        default_focal_px(size)
    )


def undistort_k1(pts: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Remove radial distortion ``k1`` (as ``distort_k1``) from pixels (N, 2)."""
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    if k1 == 0.0:
        return pts.copy()
    c = 0.5 * np.array(size, np.float64)
    f = default_focal_px(size)
    d = (pts - c) / f
    u = d.copy()
    for _ in range(8):
        u = d / (1.0 + k1 * np.sum(u * u, axis=1, keepdims=True))
    return c + u * f


def _trimmed_line(pts: np.ndarray, tol: float) -> np.ndarray:
    """Line (a, b, c) through ``pts`` (N, 2): least squares, then again on the
    points within ``max(tol, 3 x`` their median distance ``)`` (twice)."""
    keep = np.ones(len(pts), bool)
    line = np.zeros(3)
    for _ in range(3):
        sel = pts[keep] if keep.sum() >= 2 else pts
        c = sel.mean(axis=0)
        normal = np.linalg.svd(sel - c, full_matrices=False)[2][1]
        line = np.array([normal[0], normal[1], -normal @ c])
        d = np.abs(pts @ normal + line[2])
        keep = d < max(tol, 3.0 * float(np.median(d)))
    return line


def _lens_bow(edges: list[np.ndarray], size: tuple[int, int]) -> float:
    """Radial distortion k1 (as ``distort_k1``) that makes the cushion edges straight.

    ``edges``: one (N, 2) px array per cushion. A coarse search (the k1 whose
    undistorted edges lie closest to one straight line per cushion, with a
    truncated cost so that players and balls on an edge do not count), then
    Gauss-Newton steps on the inliers. 0 with fewer than three cushions' edges.
    """
    if len(edges) < 3:
        return 0.0
    tol = 2.0

    def lines_at(k1: float) -> tuple[float, list[np.ndarray]]:
        total = 0.0
        fitted = []
        for edge in edges:
            pts = undistort_k1(edge, k1, size)
            line = _trimmed_line(pts, tol)
            d = pts @ line[:2] + line[2]
            total += float(np.sum(np.minimum(d * d, tol * tol)))
            fitted.append(line)
        return total, fitted

    coarse = (-0.25, -0.15, -0.08, -0.03, 0.0, 0.04)
    costs = [lines_at(k)[0] for k in coarse]
    k1 = coarse[int(np.argmin(costs))]
    _, lines = lines_at(k1)
    eps = 1e-3
    for _ in range(6):
        num = den = 0.0
        for j, edge in enumerate(edges):
            pts = undistort_k1(edge, k1, size)
            moved = undistort_k1(edge, k1 + eps, size)
            inl = np.abs(pts @ lines[j][:2] + lines[j][2]) < tol
            if inl.sum() < 6:
                continue
            u, v = pts[inl], (moved[inl] - pts[inl]) / eps
            c = u.mean(axis=0)
            normal = np.linalg.svd(u - c, full_matrices=False)[2][1]
            r = (u - c) @ normal
            g = (v - v.mean(axis=0)) @ normal
            num += float(r @ g)
            den += float(g @ g)
            lines[j] = np.array([normal[0], normal[1], -normal @ c])
        if den <= 0:
            break
        step = -num / den
        k1 = float(np.clip(k1 + step, -0.4, 0.2))
        if abs(step) < 1e-4:
            break
    return k1


def _nose_offset(
    profile: np.ndarray, bed: float, thr: float, bed_len: int, face_len: int
) -> tuple[float, float] | None:
    """Where the cushion nose and the bed's edge lie along an inward ``profile``.

    Walks outwards from the bed (the last ``bed_len`` samples, at level ``bed``) to
    the first departure from the bed's level by more than ``thr``. A narrow dark band
    there is the nose's shadow line (the nose is its bed-side edge); a band wider
    than ``face_len`` samples is the visible cushion face (the nose is its outer
    edge, where the lit cushion top starts).

    Returns:
        (nose, inner) offsets in samples (index 0 = outside), or None: ``inner`` is
        the edge next to the bed (the bed-side edge of a dark band), the same as
        ``nose`` unless a face was seen.
    """
    n = len(profile)
    dev = np.nonzero(np.abs(profile[: n - bed_len] - bed) > thr)[0]
    if len(dev) == 0 or dev[-1] < 2:
        return None
    i = int(dev[-1])
    grad = np.diff(profile)  # grad[k] > 0: brighter going inwards past k + 0.5
    hi = min(n - 2, i + 6)
    if profile[i] < bed:
        outward = profile[i::-1]
        lowest = np.minimum.accumulate(outward)
        back = np.nonzero(outward >= lowest + thr)[0]
        m = i - int(np.argmin(outward[: back[0] + 1] if len(back) else outward))
        inner = m + int(np.argmax(grad[m : max(m + 1, hi)])) + 0.5
        if len(back):
            width = int(back[0])
            if face_len < width < i:
                lo = max(0, i - width - 4)
                k = lo + int(np.argmin(grad[lo : max(lo + 1, m)]))
                return k + 0.5, inner
        return inner, inner
    lo = max(0, i - 8)
    k = lo + int(np.argmax(np.abs(grad[lo:hi]))) + 0.5
    return k, k


def _bed_edges(outline: TableOutline, rng: np.random.Generator) -> list[np.ndarray]:
    """Per side, (N, 2) px of the edge next to the bed, looked for again across the
    line the outline's samples make: the strongest dark-to-bright step going
    inwards within ``_BED_WINDOW_PX`` of it (the cloth region's side the outline
    searched from can be askew, from a pocket's bulge or a bowed lens, and part of
    the edge lie outside the first search)."""
    out = []
    if outline.value is None:
        return list(outline.inner_edges)
    steps = np.arange(-_BED_WINDOW_PX, _BED_WINDOW_PX + 0.01, 0.5)
    for found, (base, normal, _) in zip(
        outline.inner_edges, outline.searches, strict=True
    ):
        if len(found) < 12:
            out.append(found)
            continue
        length = float(np.linalg.norm(base[-1] - base[0]))
        ln, _ = _fit_line_ransac(found, max(1.5, 0.002 * length), rng)
        if ln[:2] @ normal < 0:
            ln = -ln
        on_line = base - (base @ ln[:2] + ln[2])[:, None] * ln[None, :2]
        prof = _sample(
            outline.value, on_line[:, None, :] + steps[None, :, None] * ln[:2]
        )
        grad = prof[:, 4:] - prof[:, :-4]  # over 2 px, at steps[2:-2]
        k = np.clip(np.argmax(grad, axis=1), 1, grad.shape[1] - 2)
        rows = np.arange(len(k))
        y0, y1, y2 = grad[rows, k - 1], grad[rows, k], grad[rows, k + 1]
        den = y0 - 2 * y1 + y2
        with np.errstate(invalid="ignore", divide="ignore"):
            frac = np.where(den < -1e-6, 0.5 * (y0 - y2) / den, 0.0)
        pos = steps[2:-2][k] + 0.5 * np.clip(frac, -0.5, 0.5)
        good = y1 > max(6.0, 0.4 * float(np.median(y1)))
        out.append(on_line[good] + pos[good, None] * ln[:2])
    return out


_BED_WINDOW_PX = 10.0
"""Half-width of the second search for a cushion's edge next to the bed, px."""


def find_outline(image: np.ndarray, seed: int = 0) -> TableOutline:
    """The four cushion-nose lines and corners of the table in ``image`` (BGR).

    Raises:
        CalibrationError: no table-like region, or its sides cannot be fitted.
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise CalibrationError("expected a colour (BGR) image")
    bars = tuple(find_bars(image))
    mask, scale = cloth_mask(image, bars)
    quad = _outer_quad(mask) / scale
    rng = np.random.default_rng(seed)
    b, g, r = cv2.split(image)
    gray = cv2.max(cv2.max(b, g), r).astype(np.float32)  # the HSV value
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    h, w = gray.shape
    centre = quad.mean(axis=0)
    lines = np.zeros((4, 3))
    rms = np.zeros(4)
    frac = np.zeros(4)
    inner_edges: list[np.ndarray] = []
    searches: list[tuple[np.ndarray, np.ndarray, float]] = []
    for i in range(4):
        p, q = quad[i], quad[(i + 1) % 4]
        length = float(np.hypot(*(q - p)))
        direction = (q - p) / length
        normal = np.array([-direction[1], direction[0]])
        if normal @ (centre - p) < 0:
            normal = -normal
        opposite = 0.5 * (quad[(i + 2) % 4] + quad[(i + 3) % 4])
        depth = float(normal @ (opposite - p))
        band = max(16.0, 0.08 * depth)
        start = -max(4.0, 0.01 * depth)
        steps = np.arange(start, band, 0.5)
        ts = np.linspace(0.06, 0.94, 120)
        ts = ts[np.abs(ts - 0.5) > 0.05]
        base = p[None, :] + ts[:, None] * (q - p)[None, :]
        pts = base[:, None, :] + steps[None, :, None] * normal[None, None, :]
        profiles = _sample(gray, pts)
        bed_len = max(6, int(0.3 * len(steps)))
        face_len = int(2 * max(4.0, 8.0 * h / 1080))  # samples are 0.5 px apart
        inner = profiles[:, -bed_len:]
        beds = np.median(inner, axis=1)
        spreads = np.mean(np.abs(inner - beds[:, None]), axis=1)
        found = []
        bed_side = []
        for k, profile in enumerate(profiles):
            thr = max(14.0, 0.1 * float(beds[k]), 4.0 * float(spreads[k]))
            off = _nose_offset(profile, float(beds[k]), thr, bed_len, face_len)
            if off is not None:
                found.append(base[k] + (start + off[0] * 0.5) * normal)
                bed_side.append(base[k] + (start + off[1] * 0.5) * normal)
        inner_edges.append(np.array(bed_side).reshape(-1, 2))
        searches.append((base, normal, depth))
        if len(found) >= 12:
            edge_pts = np.array(found)
            line, inl = _fit_line_ransac(
                edge_pts, tol=max(1.5, 0.002 * length), rng=rng
            )
            if line[:2] @ normal < 0:
                line = -line
            if inl.sum() >= 0.1 * len(ts):
                lines[i] = line
                d = edge_pts[inl] @ line[:2] + line[2]
                rms[i] = float(np.sqrt(np.mean(d**2)))
                frac[i] = inl.sum() / len(ts)
                continue
        # no nose edge (a cushion top as bright as the bed, seen from behind; a
        # score bar over the cushion): the cloth region's own side, the cushion's
        # outer edge, a cushion width out; refining (which can start from the
        # baulk line instead) and the self-check take it from there
        lines[i] = _line_through(p, q)
        if lines[i][:2] @ normal < 0:
            lines[i] = -lines[i]
        rms[i] = math.nan
        frac[i] = 0.1
    corners = np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)])
    if (
        np.any(corners[:, 0] < -0.5 * w)
        or np.any(corners[:, 0] > 1.5 * w)
        or np.any(corners[:, 1] < -0.5 * h)
        or np.any(corners[:, 1] > 1.5 * h)
    ):
        raise CalibrationError("table corners fall far outside the frame")
    if np.isnan(rms).sum() > 1:
        raise CalibrationError("the cushion noses of two table sides not found")
    if np.min(frac) < 0.1:
        side = int(np.argmin(frac))
        raise CalibrationError(
            f"table side {side}: only {frac[side]:.0%} of the cushion nose is visible"
        )
    return TableOutline(
        corners, lines, rms, frac, mask, scale, tuple(inner_edges), tuple(searches),
        gray, bars,
    )


# ------------------------------------------------------------------ orientation


def _hypotheses(corners: np.ndarray) -> list[np.ndarray]:
    """The four ways to name screen-anticlockwise corners as ``CORNER_ORDER``."""
    return [np.roll(corners, -k, axis=0) for k in range(4)]


def _mask_fraction(outline: TableOutline, pts_px: np.ndarray) -> float:
    """Share of ``pts_px`` (full-scale px) on the cloth mask (nan: off the frame)."""
    p = np.round(pts_px * outline.scale).astype(int)
    mh, mw = outline.mask.shape
    ok = (p[:, 0] >= 0) & (p[:, 0] < mw) & (p[:, 1] >= 0) & (p[:, 1] < mh)
    if ok.sum() < max(3, len(p) // 3):
        return float("nan")
    return float(outline.mask[p[ok, 1], p[ok, 0]].mean())


def _pocket_score(
    image: np.ndarray, outline: TableOutline, h_t2i: np.ndarray, spec: TableSpec
) -> float:
    """How much more the middles of the hypothesised long sides look like pockets.

    Just outside the nose at the middle of a side cushion there is a pocket mouth;
    at the middle of an end cushion, and a quarter along any side, there is cushion
    top. Compares colours there. Positive: the hypothesis' long sides are right.
    """
    hl, hw = spec.half_length, spec.half_width
    offs = np.linspace(15.0, 40.0, 4)
    along = np.linspace(-20.0, 20.0, 5)

    def colour(pts: np.ndarray) -> np.ndarray:
        return np.median(_sample(image, apply_homography(h_t2i, pts)), axis=0)

    contrast = []
    for long_side in (True, False):
        for sign in (-1.0, 1.0):
            values = []
            half = hl if long_side else hw
            for centre in (0.0, -0.5 * half, 0.5 * half):
                pts = np.array(
                    [
                        (centre + a, sign * (hw + o))
                        if long_side
                        else (sign * (hl + o), centre + a)
                        for a in along
                        for o in offs
                    ]
                )
                values.append(colour(pts))
            mid, q1, q2 = values
            contrast.append(
                float(np.linalg.norm(mid - 0.5 * (q1 + q2)) - np.linalg.norm(q1 - q2))
            )
    return (contrast[0] + contrast[1] - contrast[2] - contrast[3]) / 100.0


def _geometry_cost(h_t2i: np.ndarray, size: tuple[int, int]) -> float:
    """How far the homography is from any pinhole view of this table (0 = exact).

    For focal lengths from a wide angle to a long telephoto (principal point at the
    image centre), the back-projected table axes must be orthogonal and equally
    scaled; naming a long side as a short one breaks that for every focal length.
    """
    w, h = size
    f = np.geomspace(0.35 * max(w, h), 15 * max(w, h), 60)
    # K^-1 H for every focal length at once: the first two rows scaled by 1/f
    m = np.broadcast_to(h_t2i, (len(f), 3, 3)).copy()
    m[:, :2] -= np.array([w / 2, h / 2])[None, :, None] * h_t2i[2][None, None, :]
    m[:, :2] /= f[:, None, None]
    n1 = np.linalg.norm(m[:, :, 0], axis=1)
    n2 = np.linalg.norm(m[:, :, 1], axis=1)
    dot = np.abs(np.sum(m[:, :, 0] * m[:, :, 1], axis=1))
    return float(np.min(np.abs(np.log(n1 / n2)) + dot / (n1 * n2)))


def _ridge(
    gray: np.ndarray, pts: np.ndarray, normals: np.ndarray, width: float
) -> float:
    """Brightness of a thin line near ``pts`` over its sides ``width`` px away.

    The line is looked for up to ``2 * width`` px either side of where it is
    predicted (the corners' mapping is not exact yet); the best shift counts.
    """
    shifts = np.arange(-2 * width, 2 * width + 0.01, 0.5)
    p = pts[None] + shifts[:, None, None] * normals[None]  # (S, N, 2)
    on = _sample(gray, p)
    side = width * normals[None]
    off = np.maximum(_sample(gray, p + side), _sample(gray, p - side))
    return float(np.max(np.median(on - off, axis=1)))


def _baulk_marks(spec: TableSpec) -> tuple[np.ndarray, np.ndarray]:
    """Points on the baulk line (either side of the D) and the D, table mm (N, 2),
    and unit normals (N, 2) across them."""
    hw = spec.half_width
    bx = spec.baulk_line_x
    r = spec.d_radius_mm
    ys = np.concatenate(
        [np.linspace(-0.9 * hw, -r - 40, 20), np.linspace(r + 40, 0.9 * hw, 20)]
    )
    line_pts = np.column_stack([np.full_like(ys, bx), ys])
    ang = np.linspace(0.6, math.pi - 0.6, 25)
    arc = np.column_stack([bx - r * np.sin(ang), r * np.cos(ang)])
    pts = np.vstack([line_pts, arc])
    normals = np.vstack(
        [
            np.tile([1.0, 0.0], (len(line_pts), 1)),
            -np.column_stack([np.sin(ang), -np.cos(ang)]),
        ]
    )
    return pts, normals


def _end_score(
    image: np.ndarray,
    gray: np.ndarray,
    outline: TableOutline,
    h_t2i: np.ndarray,
    spec: TableSpec,
) -> float:
    """Evidence that the end at -x is baulk rather than the end at +x.

    Compares the baulk line and D (thin bright lines) and the balls on the yellow,
    brown and green spots (non-cloth blobs) with the same places mirrored to the
    other end. Positive: -x is baulk.
    """
    bx = spec.baulk_line_x
    r = spec.d_radius_mm
    score = 0.0
    marks, normals = _baulk_marks(spec)
    for sign in (1.0, -1.0):
        xs = sign * bx
        d_pts = marks * [sign, 1.0]
        d_norm = normals * [sign, 1.0]
        img = apply_homography(h_t2i, d_pts)
        img2 = apply_homography(h_t2i, d_pts + 20.0 * d_norm)
        nrm = img2 - img
        lens = np.linalg.norm(nrm, axis=1, keepdims=True)
        nrm = nrm / np.maximum(lens, 1e-9)
        width = float(np.clip(np.median(lens) * 0.25, 2.5, 8.0))
        ridge = _ridge(gray, img, nrm, width)
        spots = np.array([(xs, -r), (xs, 0.0), (xs, r)])
        balls = 1.0 - _mask_fraction(outline, apply_homography(h_t2i, spots))
        if math.isnan(balls):
            balls = 0.0
        score += sign * (ridge / 6.0 + balls)
    return score


def orient_candidates(
    image: np.ndarray, outline: TableOutline, spec: TableSpec
) -> tuple[list[np.ndarray], list[str]]:
    """Namings of the outline's corners ((4, 2) px, ``CORNER_ORDER``) and notes.

    One naming when the baulk end is clear; both ends, the better-supported first,
    when it is in doubt (the self-check then decides).

    Raises:
        CalibrationError: the long sides cannot be told from the short ones.
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    table_corners = np.array([spec.corners[n] for n in CORNER_ORDER])
    size = (image.shape[1], image.shape[0])
    scored = []
    for k, named in enumerate(_hypotheses(outline.corners_px)):
        h = cv2.getPerspectiveTransform(
            table_corners.astype(np.float32), named.astype(np.float32)
        ).astype(np.float64)
        geometry = _geometry_cost(h, size)
        evidence = _pocket_score(image, outline, h, spec) - 2.0 * geometry
        scored.append((k, named, h, evidence, geometry))
    # hypotheses k and k+2 share their long sides
    pair = [scored[0][3], scored[1][3]]
    best_pair = int(np.argmax(pair))
    margin = abs(pair[0] - pair[1])
    notes = [f"long sides from the shape and middle pockets (margin {margin:.2f})"]
    shapes = sorted([scored[0][4], scored[1][4]])
    if shapes[1] > 0.3 and shapes[1] > SHAPE_CLEAR * shapes[0]:
        # the outline's shape alone fits a pinhole view one way only (what looks
        # like a middle pocket can be balls at a cushion's middle, or a score bar)
        best_pair = int(scored[1][4] < scored[0][4])
        notes = [f"long sides from the shape (cost {shapes[0]:.2f} against "
                 f"{shapes[1]:.2f})"]
    elif margin < 0.3:
        raise CalibrationError(
            "cannot tell the long sides from the short ones (shape and pockets agree "
            "with both)"
        )
    a, b = scored[best_pair], scored[best_pair + 2]
    end = _end_score(image, gray, outline, a[2], spec)
    notes.append(f"baulk end from the baulk line, D and spots (evidence {end:+.2f})")
    named = [a[1], b[1]] if end > 0 else [b[1], a[1]]
    return (named if abs(end) < END_SURE else named[:1]), notes


SHAPE_CLEAR = 5.0
"""When one naming of the long sides fits a pinhole view this many times better
than the other (``_geometry_cost``; over 0.3 for the worse), the shape decides
alone. On 500 rendered frames the shape named them wrongly only where the two
costs were within 10 % of each other."""

END_SURE = 0.6
"""Evidence (``_end_score``) past which the baulk end is taken without trying the
other: on 500 rendered frames, a wrong end came with evidence up to 0.35 (a score
bar over the baulk cushion moves the outline, and with it where the baulk line is
looked for); below this both ends go to the self-check."""


# ------------------------------------------------------------------ calibrate


def auto_calibrate(
    image: np.ndarray,
    table: str = "official",
    nose_height_mm: float = CUSHION_NOSE_HEIGHT_MM,
    focal_px: float | None = None,
    refine_lines: bool = False,
) -> Calibration:
    """Calibrate from one BGR frame without clicks.

    Every result passes the self-check of ``calibration.verify`` (the baulk line,
    the D, the cushions and the pockets drawn back must agree with the frame) or
    is reported as a ``CalibrationError``: by default the table's outline (the
    four cushion-nose corners; near overhead, the edges next to the bed with the
    lens distortion and their height, ``_from_corners``), refined on the whole
    table when the outline alone fails the check.

    Args:
        image: (H, W, 3) uint8 BGR frame.
        table: Table type name.
        nose_height_mm: Height of the cushion noses above the cloth.
        focal_px: Focal length if known (else estimated, or guessed when overhead).
        refine_lines: Always refine one camera with lens distortion on the
            cushions, the baulk line and the D (``calibration.refine``).

    Returns:
        A calibration with ``method="auto"``; residuals are the RMS of each cushion
        nose line's edge samples, in mm.

    Raises:
        CalibrationError: the table cannot be found or oriented with confidence.
    """
    spec = table_by_name(table)
    outline = find_outline(image)
    candidates, notes = orient_candidates(image, outline, spec)
    if len(candidates) == 1:
        return _oriented(
            image, outline, candidates[0], notes, spec, nose_height_mm, focal_px,
            refine_lines,
        )
    # the baulk end is in doubt: only the right end's baulk line and D fit
    passed: list[Calibration] = []
    errors: list[str] = []
    how = "baulk end from the self-check"
    for named in candidates:
        try:
            passed.append(
                _oriented(
                    image, outline, named, [*notes, how], spec, nose_height_mm,
                    focal_px, refine_lines,
                )
            )
        except CalibrationError as error:
            errors.append(str(error))
    if not passed:
        # no baulk line near either end, and neither fits: the long sides may be
        # the short ones (the corners named one place round)
        how = "long sides and baulk end from the self-check"
        for turn in (1, -1):
            try:
                passed.append(
                    _oriented(
                        image, outline, np.roll(candidates[0], turn, axis=0),
                        [*notes, how], spec, nose_height_mm, focal_px,
                        refine_lines,
                    )
                )
            except CalibrationError:
                pass
    if len(passed) == 2:
        passed = _clearly_better(image, passed, nose_height_mm, outline.bars)
    if len(passed) == 1:
        return passed[0]
    if passed:
        raise CalibrationError("cannot tell which end is baulk: both ends fit")
    raise CalibrationError(
        f"cannot tell which end is baulk, and neither end fits ({errors[0]})"
    )


def _clearly_better(
    image: np.ndarray,
    passed: list[Calibration],
    nose_height_mm: float,
    bars: Sequence[ScoreBar] | None = None,
) -> list[Calibration]:
    """Of two calibrations that both pass the self-check (the two ends), the one
    whose baulk line and D show clearly more chalk (``CHALK_MORE`` times the
    samples) and lie closer to it; both when neither does."""
    verdicts = [verify(image, cal, nose_height_mm, bars) for cal in passed]
    for k in (0, 1):
        mine, other = verdicts[k], verdicts[1 - k]
        if (mine.line_found >= CHALK_MORE * other.line_found
                and mine.line_offset < other.line_offset):
            return [replace(passed[k], notes=(
                *passed[k].notes, "both ends fit; this one's chalk lines clearly "
                f"better ({mine.line_found} samples against {other.line_found})"))]
    return passed


CHALK_MORE = 1.25
"""How many times the chalk samples one end's baulk line and D must show, over the
other end's, to be taken when both pass the self-check."""


def _oriented(
    image: np.ndarray,
    outline: TableOutline,
    named: np.ndarray,
    notes: list[str],
    spec: TableSpec,
    nose_height_mm: float,
    focal_px: float | None,
    refine_lines: bool,
) -> Calibration:
    """``auto_calibrate`` once the corners are named: (4, 2) px, ``CORNER_ORDER``."""
    h_img, w_img = image.shape[:2]
    size = (w_img, h_img)
    h_nose = _corner_homography(named, spec)
    first: Verdict | None = None
    if not refine_lines:
        cal = _from_corners(
            outline, named, notes, h_nose, spec, size, nose_height_mm, focal_px
        )
        first = verify(image, cal, nose_height_mm, outline.bars)
        if first.ok:
            return cal
    # refine on the whole table, from the corners as found and, if that fails,
    # with a far cushion's found edge taken as the bed edge under its face, and
    # each of those with the baulk line in place of a (hidden) baulk cushion
    starts: list[tuple[np.ndarray, list[str]]] = [(named, [])]
    moved = _bed_edges_to_nose(named, spec, size, nose_height_mm, focal_px)
    if moved is not None:
        starts.append((moved, ["started with a far cushion's bed edge"]))
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lines = [_baulk_line(gray, outline, start, spec) for start, _ in starts]
    lines = [ln for i, ln in enumerate(lines) if ln is not None and not any(
        other is not None and _same_line(ln, other) for other in lines[:i])]
    for start, how in list(starts):
        for line in lines:
            remade = _with_baulk_line(line, start, spec)
            if remade is not None:
                starts.append(
                    (remade,
                     [*how, "started from the baulk line, not the baulk cushion"])
                )
    reasons = [] if first is None else [f"corners alone: {first.reason}"]
    for start, how in starts:
        try:
            cal = _refined(
                image, start, notes, _corner_homography(start, spec), spec, size,
                nose_height_mm, focal_px, outline.bars,
            )
        except CalibrationError as error:
            reasons.append(str(error))
            continue
        verdict = verify(image, cal, nose_height_mm, outline.bars)
        if verdict.ok:
            extra = [] if first is None else [f"corners alone rejected: {first.reason}"]
            return replace(cal, notes=(*cal.notes, *extra, *how))
        reasons.append(f"self-check: {verdict.reason}")
    raise CalibrationError("; ".join(reasons))


def _corner_homography(named: np.ndarray, spec: TableSpec) -> np.ndarray:
    """(3, 3) homography, table mm (nose plane) to px, from the named corners."""
    table_corners = np.array([spec.corners[n] for n in CORNER_ORDER])
    return cv2.getPerspectiveTransform(
        table_corners.astype(np.float32), named.astype(np.float32)
    ).astype(np.float64)


def _bed_edges_to_nose(
    named: np.ndarray,
    spec: TableSpec,
    size: tuple[int, int],
    nose_height_mm: float,
    focal_px: float | None,
) -> np.ndarray | None:
    """Corners (4, 2) px with each grazing cushion's line moved up to its nose.

    Seen at a grazing angle (a broadcast camera's far cushion), the cushion face
    shows and the outline's edge is where the face meets the bed: the nose lies
    higher in the image by the face's height. None when no cushion is seen so.
    """
    try:
        pose = pose_from_homography(
            _corner_homography(named, spec), size, z_mm=nose_height_mm,
            focal_px=focal_px,
        )
    except CalibrationError:
        return None
    c = pose.centre_mm
    hl, hw = spec.half_length, spec.half_width
    table = np.array([spec.corners[n] for n in CORNER_ORDER])
    lines = []
    moved = False
    for i in range(4):
        p, q = named[i], named[(i + 1) % 4]
        line = _line_through(p, q)
        mid = 0.5 * (table[i] + table[(i + 1) % 4])
        axis = 0 if abs(abs(mid[0]) - hl) < 1 else 1
        half = hl if axis == 0 else hw
        sign = float(np.sign(mid[axis]))
        inside = sign * c[axis] < half  # the camera sees the cushion's face
        grazing = c[2] - nose_height_mm < half - sign * c[axis]
        if inside and grazing:
            top = pose.project(np.array([[*mid, nose_height_mm]]))[0]
            bed = pose.project(np.array([[*mid, 0.0]]))[0]
            line = line.copy()
            line[2] -= line[:2] @ (top - bed)
            moved = True
        lines.append(line)
    if not moved:
        return None
    try:
        return np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)])
    except CalibrationError:
        return None


def _baulk_line(
    gray: np.ndarray, outline: TableOutline, named: np.ndarray, spec: TableSpec
) -> np.ndarray | None:
    """The baulk line near where the corners (4, 2) px put it: (3,) image line.

    A score bar or a player can hide the near (baulk) cushion of a broadcast view,
    and the outline then takes a wrong edge for it. The baulk line (a thin bright
    line on the cloth, parallel to that cushion) is looked for within
    ``_BAULK_SEARCH_PX`` of where the corners put it, with cloth on both sides
    (not a far cushion's nose). None when no such line is found there.
    """
    h_t2i = _corner_homography(named, spec)
    hw = spec.half_width
    bx = spec.baulk_line_x
    ys = np.linspace(-0.85 * hw, 0.85 * hw, 48)
    pts = apply_homography(h_t2i, np.column_stack([np.full_like(ys, bx), ys]))
    ahead = apply_homography(h_t2i, np.column_stack([np.full_like(ys, bx + 20.0), ys]))
    nrm = ahead - pts
    nrm /= np.maximum(np.linalg.norm(nrm, axis=1, keepdims=True), 1e-9)
    if not (np.all(np.isfinite(pts)) and np.all(np.isfinite(nrm))):
        return None
    step = 0.5
    offs = np.arange(-_BAULK_SEARCH_PX, _BAULK_SEARCH_PX + 0.01, step)
    prof = _sample(gray, pts[:, None, :] + offs[None, :, None] * nrm[:, None, :])
    w = 5  # samples: 2.5 px either side
    ridge = prof[:, w:-w] - np.maximum(prof[:, : -2 * w], prof[:, 2 * w :])
    k = np.argmax(ridge, axis=1)
    best = ridge[np.arange(len(k)), k]
    ok = best > 6.0
    if ok.sum() < 16:
        return None
    found = pts[ok] + offs[w:-w][k[ok], None] * nrm[ok]
    try:
        line, inl = _fit_line_ransac(found, 1.5, np.random.default_rng(2))
    except CalibrationError:
        return None
    if inl.sum() < 16:
        return None
    for side in (-10.0, 10.0):
        if not _mask_fraction(outline, found[inl] + side * line[:2]) >= 0.7:
            return None
    return line


def _same_line(a: np.ndarray, b: np.ndarray, tol_px: float = 3.0) -> bool:
    """Whether two (3,) image lines with unit normals are the same: offsets within
    ``tol_px``, normals within what turns a line ``tol_px`` over 1920 px."""
    if float(a[:2] @ b[:2]) < 0:
        b = -b
    return bool(np.allclose(a[:2], b[:2], atol=tol_px / 1920.0)
                and abs(a[2] - b[2]) < tol_px)


def _with_baulk_line(
    line: np.ndarray, named: np.ndarray, spec: TableSpec
) -> np.ndarray | None:
    """Corners (4, 2) px re-made with the image ``line`` as the baulk line: with
    it, the corners' two side cushions and top cushion give the table."""
    hw = spec.half_width
    bx = spec.baulk_line_x
    left = _line_through(named[3], named[0])
    right = _line_through(named[1], named[2])
    try:
        quad = np.array(
            [
                _intersect(line, left),
                _intersect(line, right),
                named[2],
                named[3],
            ]
        )
    except CalibrationError:
        return None
    table = np.array([(bx, hw), (bx, -hw), spec.corners["top_right"],
                      spec.corners["top_left"]], np.float32)
    h_new = cv2.getPerspectiveTransform(table, quad.astype(np.float32))
    corners = np.array([spec.corners[n] for n in CORNER_ORDER])
    return apply_homography(h_new.astype(np.float64), corners)


_BAULK_SEARCH_PX = 100.0
"""How far (px) from where the corners put it the baulk line is looked for."""


OBLIQUE_DEG = 25.0
"""A view tilted this far from straight down or more is oblique (broadcast): the
table's perspective tells the focal length."""

BROADCAST_K1_MAX = 0.15
"""Largest radial distortion (OpenCV k1) believed of an oblique (broadcast) view:
such views are shot with long zoom lenses, nearly free of distortion; a refinement
that needs more has bent the lens to fit wrong edges. (Wide lenses are for overhead
rigs, whose views are not held to this.)"""


def _refined(
    image: np.ndarray,
    named: np.ndarray,
    notes: list[str],
    h_nose: np.ndarray,
    spec: TableSpec,
    size: tuple[int, int],
    nose_height_mm: float,
    focal_px: float | None,
    bars: Sequence[ScoreBar],
) -> Calibration:
    """The calibration refined on the whole table (``calibration.refine``), with the
    refinement's own residual check; ``bars``: the score bars in ``image``."""
    w_img, h_img = size
    notes = list(notes)
    pose = pose_from_homography(h_nose, size, z_mm=nose_height_mm, focal_px=focal_px)
    prior = focal_px
    if prior is None and (pose.focal_source == "default"
                          or pose.tilt_deg < OBLIQUE_DEG):
        # near overhead the table's perspective cannot tell the focal length
        prior = default_focal_px(size)
        pose = pose_from_homography(h_nose, size, z_mm=nose_height_mm, focal_px=prior)
    centre = np.array([w_img / 2, h_img / 2])
    first = Camera8(
        float(pose.camera_matrix[0, 0]),
        0.0,
        cv2.Rodrigues(pose.rotation)[0].reshape(3),
        pose.translation_mm.copy(),
        centre,
    )
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    centre_px = apply_homography(
        h_nose, np.array([(x, y) for x in (-0.5, 0.0, 0.5) for y in (-0.4, 0.4)])
        * [spec.half_length, spec.half_width]
    )
    q = np.round(np.clip(centre_px, 0, [w_img - 1, h_img - 1])).astype(int)
    cloth = np.median(hsv[q[:, 1], q[:, 0]].astype(np.float64), axis=0)
    clothlike = hide_bars(clothlike_map(hsv, cloth), bars, float(cloth[2]))
    result = refine(
        gray, first, spec, nose_height_mm, focal_prior=prior,
        clothlike=clothlike, lit=lit_map(hsv, cloth),
    )
    cam = result.camera
    _self_check(result, first, spec, size)
    if pose.tilt_deg >= OBLIQUE_DEG and abs(cam.k1) > BROADCAST_K1_MAX:
        raise CalibrationError(
            f"self-check: lens distortion k1 {cam.k1:+.2f} after refining, more "
            "than a broadcast camera's lens has"
        )
    k = cam.camera_matrix
    r = cam.rotation
    h_t2i = k @ np.column_stack([r[:, 0], r[:, 1], cam.tvec])
    h_i2t = np.linalg.inv(h_t2i)
    h_i2t /= h_i2t[2, 2]
    check_orientation(h_i2t, spec)
    notes.append(
        f"refined on {int(result.group_counts.sum())} edge samples: focal "
        f"{cam.focal_px:.0f} px, k1 {cam.k1:+.4f}"
    )
    return Calibration(
        image_size=size,
        table=spec.name,
        homography=h_i2t,
        method="auto",
        residuals_mm=np.nan_to_num(result.group_rms_px, nan=0.0),
        residual_names=tuple(f"{g}_px" for g in GROUP_NAMES),
        pose=cam.pose("refined" if focal_px is None else "given"),
        dist_coeffs=np.array([cam.k1, 0.0, 0.0, 0.0, 0.0]),
        notes=tuple(notes),
    )


def _from_corners(
    outline: TableOutline,
    named: np.ndarray,
    notes: list[str],
    h_nose: np.ndarray,
    spec: TableSpec,
    size: tuple[int, int],
    nose_height_mm: float,
    focal_px: float | None,
) -> Calibration:
    """The calibration from the four nose corners alone (no refinement).

    Near overhead (no focal length from the table's perspective) the table comes
    from the edges next to the bed instead, with the lens distortion that
    straightens them and their height above the cloth from where the baulk line
    and the D are (``_overhead_fit``).
    """
    notes = list(notes)
    pose = pose_from_homography(h_nose, size, z_mm=nose_height_mm, focal_px=focal_px)
    dist = None
    h_cloth_t2i = None
    guess = pose_from_homography(
        h_nose, size, z_mm=nose_height_mm, focal_px=default_focal_px(size)
    )
    if focal_px is None and guess.tilt_deg < 20.0:
        # near overhead the table's perspective cannot tell the focal length (a
        # lens's distortion can make it seem to)
        fitted = _overhead_fit(outline, named, spec, size, guess)
        if fitted is not None:
            h_cloth_t2i, pose, dist, note = fitted
            notes.append(note)
    if h_cloth_t2i is None:
        # cloth plane: keep the fitted nose mapping, move it down by the nose height
        p_nose = pose.plane_homography(nose_height_mm)
        s = float(np.sum(h_nose * p_nose) / np.sum(p_nose * p_nose))
        h_cloth_t2i = h_nose / s - pose.camera_matrix @ np.outer(
            pose.rotation[:, 2] * nose_height_mm, [0.0, 0.0, 1.0]
        )
    h_i2t = np.linalg.inv(h_cloth_t2i)
    check_orientation(h_i2t, spec)
    # side residuals: px -> mm with the local scale at each side's middle
    names = []
    res = []
    side_names = ("baulk_cushion", "right_cushion", "top_cushion", "left_cushion")
    k0 = int(np.argmin(np.linalg.norm(outline.corners_px - named[0], axis=1)))
    for i, name in enumerate(side_names):
        j = (k0 + i) % 4
        mid = 0.5 * (outline.corners_px[j] + outline.corners_px[(j + 1) % 4])
        a = apply_homography(h_i2t, mid[None])[0]
        b = apply_homography(h_i2t, (mid + outline.lines[j][:2])[None])[0]
        if math.isnan(outline.line_rms_px[j]):
            notes.append(f"{name}: nose not found, outer edge used")
            continue
        names.append(name)
        res.append(outline.line_rms_px[j] * float(np.hypot(*(b - a))))
    notes.append(
        f"focal length {pose.camera_matrix[0, 0]:.0f} px ({pose.focal_source})"
    )
    return Calibration(
        image_size=size,
        table=spec.name,
        homography=h_i2t,
        method="auto",
        residuals_mm=np.array(res),
        residual_names=tuple(names),
        pose=pose,
        dist_coeffs=dist,
        notes=tuple(notes),
    )



def _overhead_fit(
    outline: TableOutline,
    named: np.ndarray,
    spec: TableSpec,
    size: tuple[int, int],
    pose: CameraPose,
) -> tuple[np.ndarray, CameraPose, np.ndarray, str] | None:
    """Cloth mapping of a near-overhead view from the edges next to the bed.

    Such a view cannot tell its focal length, hence its height, hence how far the
    cushion noses (37 mm up) stand out from the cloth in the image; and which edge
    of a cushion shows (the nose, or the bed edge under a visible face) depends on
    the cushion. So: the edges next to the bed (one physical line per cushion), the
    radial lens distortion that makes them straight (``_lens_bow``), their corners,
    and then the edges' height above the cloth (between -60 and 80 mm) that puts
    the baulk line and the D (on the cloth) on the frame's thin bright lines.

    Returns:
        (cloth-to-image homography (undistorted px), pose, distortion
        coefficients, note), or None when a cushion's edge or the marks are not
        found (the caller keeps the nose corners).
    """
    rng = np.random.default_rng(1)
    edges = _bed_edges(outline, rng)
    if len(edges) != 4 or min(len(e) for e in edges) < 12:
        return None
    k1 = _lens_bow(edges, size)
    lines = []
    for i, edge in enumerate(edges):
        pts = undistort_k1(edge, k1, size)
        length = float(np.linalg.norm(outline.corners_px[(i + 1) % 4]
                                      - outline.corners_px[i]))
        line, _ = _fit_line_ransac(pts, tol=max(1.5, 0.002 * length), rng=rng)
        lines.append(line)
    corners_u = np.array([_intersect(lines[i - 1], lines[i]) for i in range(4)])
    k0 = int(np.argmin(np.linalg.norm(outline.corners_px - named[0], axis=1)))
    h_edge = _corner_homography(np.roll(corners_u, -k0, axis=0), spec)
    try:
        pose = pose_from_homography(
            h_edge, size, camera_matrix=pose.camera_matrix
        )
    except CalibrationError:
        return None
    f = float(pose.camera_matrix[0, 0])
    gray = outline.value
    if gray is None:
        return None
    marks, normals = _baulk_marks(spec)
    p_edge = pose.plane_homography(0.0)
    scale = float(np.sum(h_edge * p_edge) / np.sum(p_edge * p_edge))
    heights = np.arange(-60.0, 80.01, 2.0)
    # table -> undistorted px on the cloth with the edges at height z: h0 - z * lift
    h0 = h_edge / scale
    lift = pose.camera_matrix @ np.outer(pose.rotation[:, 2], [0.0, 0.0, 1.0])

    def project(pts: np.ndarray) -> np.ndarray:
        x = np.column_stack([pts, np.ones(len(pts))])
        hom = (x @ h0.T)[None] - heights[:, None, None] * (x @ lift.T)[None]
        px = hom[..., :2] / hom[..., 2:3]
        return distort_k1(px.reshape(-1, 2), k1, size).reshape(px.shape)

    a = project(marks)
    nrm = project(marks + 20.0 * normals) - a
    lens = np.linalg.norm(nrm, axis=2, keepdims=True)
    nrm = nrm / np.maximum(lens, 1e-9)
    width = np.clip(np.median(lens, axis=1, keepdims=True) * 0.25, 2.5, 8.0)
    on = _sample(gray, a)
    off = np.maximum(_sample(gray, a + width * nrm), _sample(gray, a - width * nrm))
    scores = np.mean(np.clip(on - off, -20.0, 40.0), axis=1)
    i = int(np.argmax(scores))
    if scores[i] - float(np.median(scores)) < 3.0:
        return None  # no thin bright lines where the marks would be
    z_edge = float(heights[i])
    if 0 < i < len(heights) - 1:
        y0, y1, y2 = scores[i - 1], scores[i], scores[i + 1]
        den = y0 - 2 * y1 + y2
        if den < 0:
            z_edge += 2.0 * float(np.clip(0.5 * (y0 - y2) / den, -0.5, 0.5))
    h_t2i = h0 - z_edge * lift
    try:
        cloth_pose = pose_from_homography(
            h_t2i, size, camera_matrix=pose.camera_matrix
        )
    except CalibrationError:
        return None
    cloth_pose = replace(cloth_pose, focal_source="default")
    k1_f = k1 * (f / default_focal_px(size)) ** 2
    note = (
        f"near overhead: lens k1 {k1_f:+.4f} from the cushions' bow, their edges "
        f"{z_edge:.0f} mm above the cloth from the baulk line and the D"
    )
    return h_t2i, cloth_pose, np.array([k1_f, 0.0, 0.0, 0.0, 0.0]), note


def _self_check(
    result: Refinement, first: Camera8, spec: TableSpec, size: tuple[int, int]
) -> None:
    """Reject a refined camera that does not explain the table's lines.

    Raises:
        CalibrationError: saying which check failed.
    """
    names = GROUP_NAMES
    seen = result.group_counts[:4] >= 10
    if seen.sum() < 3:
        g = int(np.argmin(result.group_counts[:4]))
        raise CalibrationError(f"self-check: {names[g]} not found after refining")
    for g in np.nonzero(seen)[0]:
        # (one cushion may be hidden, e.g. under a TV score bar)
        if result.group_rms_px[g] > 1.6:
            raise CalibrationError(
                f"self-check: {names[g]} off its fitted line by "
                f"{result.group_rms_px[g]:.1f} px RMS"
            )
    marks = int(result.group_counts[4] + result.group_counts[5])
    if marks < 12:
        raise CalibrationError(
            "self-check: the baulk line and the D are not where the calibration "
            "puts them"
        )


def nose_corners_px(
    cal: Calibration, nose_height_mm: float = CUSHION_NOSE_HEIGHT_MM
) -> dict[str, np.ndarray]:
    """Image positions (px) of the playing-area corners on the cushion-nose plane."""
    spec = cal.spec
    pts = np.array([spec.corners[n] for n in CORNER_ORDER])
    img = cal.table_to_image(pts, z_mm=nose_height_mm if cal.pose is not None else 0.0)
    return dict(zip(CORNER_ORDER, img, strict=True))


@dataclass(frozen=True)
class FrameCheck:
    """Whether a frame still fits a calibration.

    Attributes:
        fits: True when the table is where the calibration says.
        max_shift_px: Largest corner displacement found, px (inf when not found).
        message: One line saying what was found.
    """

    fits: bool
    max_shift_px: float
    message: str


def check_frame(cal: Calibration, image: np.ndarray, tol_px: float = 6.0) -> FrameCheck:
    """Check that ``image`` still fits ``cal`` (the camera was not bumped).

    Finds the table's outline in the frame and compares its corners with where the
    calibration puts them (cushion-nose plane); when they differ by more than
    ``tol_px`` (the outline takes the nose or the bed edge, which differ on a far
    cushion), the self-check of ``calibration.verify`` decides. Frames where the
    outline cannot be found (the table covered) are reported as not fitting, with
    the reason.
    """
    if (image.shape[1], image.shape[0]) != cal.image_size:
        return FrameCheck(False, math.inf, "frame size differs from the calibration's")
    try:
        outline = find_outline(image)
    except CalibrationError as error:
        return FrameCheck(False, math.inf, f"table not found: {error}")
    expected = np.array(list(nose_corners_px(cal).values()))
    dist = np.linalg.norm(outline.corners_px[:, None, :] - expected[None], axis=2)
    shift = float(np.max(np.min(dist, axis=0)))
    if shift <= tol_px:
        return FrameCheck(True, shift, f"fits (corners within {shift:.1f} px)")
    verdict = verify(image, cal, bars=outline.bars)
    if verdict.ok and shift <= 4 * tol_px:
        message = f"fits (the table's marks agree; outline within {shift:.1f} px)"
        return FrameCheck(True, shift, message)
    return FrameCheck(False, shift, f"camera moved: a corner is {shift:.1f} px away")


@dataclass(frozen=True)
class Tracking:
    """What ``follow_frame`` did with one frame.

    Attributes:
        calibration: The calibration to use for this frame (new when recalibrated).
        recalibrated: True when the camera moved and a new calibration was made.
        fits: True when ``calibration`` fits this frame; False when the camera
            moved (or the table is hidden) and no new calibration could be made:
            the frame's measurements should not be trusted.
        message: One line saying what happened.
    """

    calibration: Calibration
    recalibrated: bool
    fits: bool
    message: str


def follow_frame(
    cal: Calibration,
    image: np.ndarray,
    tol_px: float = 6.0,
    refine_lines: bool = False,
) -> Tracking:
    """Keep a calibration fitting a video: call on a frame now and then.

    Checks the frame (``check_frame``); when the camera was moved, calibrates
    again from this frame (``auto_calibrate`` on the same table type, with its
    self-check) and returns the new calibration with ``recalibrated=True``. When the
    table cannot be seen (a player over it, a close-up or a replay), the old
    calibration is kept and ``fits`` is False.

    Args:
        cal: The current calibration.
        image: (H, W, 3) uint8 BGR frame of the same camera.
        tol_px: Corner shift (px) still taken as the same camera position.
        refine_lines: Passed to ``auto_calibrate`` when recalibrating.
    """
    checked = check_frame(cal, image, tol_px)
    if checked.fits:
        return Tracking(cal, False, True, checked.message)
    if not math.isfinite(checked.max_shift_px):
        return Tracking(cal, False, False, f"kept the calibration: {checked.message}")
    try:
        new = auto_calibrate(image, cal.table, refine_lines=refine_lines)
    except CalibrationError as error:
        return Tracking(
            cal, False, False, f"{checked.message}; recalibration failed: {error}"
        )
    new = replace(new, notes=(*new.notes, f"recalibrated: {checked.message}"))
    return Tracking(new, True, True, f"{checked.message}; recalibrated")
