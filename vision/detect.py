"""Ball detection: candidates from a "not cloth" map, sub-pixel circle fits.

Work happens in the image (not a rectified table): a ball's outline is a circle in
the image whose centre is the image of the ball's centre, so fitting that circle and
mapping its centre through the ball-centre plane gives the table position without
the perspective bias a warped top view has.

Steps: the cloth model (``vision.cloth``) marks everything that is not cloth; its
distance transform peaks at ball centres, which splits touching balls (the pack);
each candidate's outline is found along rays (rays that run into a touching
neighbour or a cue find no edge and are dropped) and a circle is fitted robustly.
Thin things (lines, spots) vanish in a small opening; pockets lie off the bed; the
classifier (``vision.identify``) tells balls from cues, hands and highlights.
"""

from __future__ import annotations

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

POCKET_MARGIN_MM = 2.0
"""Near a pocket mouth a candidate's centre may lie at most this far beyond the
place a ball at rest can reach (the dark opening and the jaws make false discs
there; a ball dropping in is lost a frame or two early, which the tracker allows)."""


def disc_coverage(fg: np.ndarray, centres: np.ndarray, radii: np.ndarray
                  ) -> np.ndarray:
    """(N,) share of each disc's sample points where ``fg`` >= 0.5.

    Sample points outside ``fg`` are left out (a disc wholly outside scores 1).

    Args:
        fg: (H, W) float32 foreground strength.
        centres: (N, 2) disc centres, px in ``fg``.
        radii: (N,) expected ball radii, px.
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
    hits = ((vals >= 0.5) & inside).sum(axis=1)
    n_in = inside.sum(axis=1)
    return np.where(n_in > 0, hits / np.maximum(n_in, 1), 1.0)


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
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sub-pixel circle fits to ball outlines in a foreground map.

    Args:
        fg: (H, W) float32 foreground strength (clipped to 0-1 inside).
        centres: (N, 2) float64 first guesses, px in ``fg``.
        radii: (N,) float64 expected radii, px.
        down: (N, 2) image direction of "down to the cloth" (``TableView.down_px``)
            or None. In oblique views the lower arc (which mirrors the cloth and
            meets the contact shadow) is left out of the fit.
        iterations: Ray casts (each re-centred on the last fit).

    Returns:
        (centres (N, 2) px, radii (N,) px, quality (N,) 0-1: share of rays that
        found an edge on the fitted circle; 0 when the fit failed).
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
        ok_all = (first_out >= 1) & start_in & use & (rr_all <= 1.4 * r0[:, None])
        for i in range(n):
            sel = ok_all[i]
            pts = out_c[i] + dirs[sel] * rr_all[i, sel, None]
            res = _robust_circle(pts, r0[i])
            if res is None:
                quality[i] = 0.0
                continue
            (cx, cy, rr), used = res
            out_c[i] = (cx, cy)
            out_r[i] = rr
            quality[i] = used / max(int(use[i].sum()), 1)
    return out_c, out_r, quality


def _robust_circle(
    pts: np.ndarray, r_expected: float
) -> tuple[tuple[float, float, float], int] | None:
    """Least-squares circle through ``pts`` (M, 2) with outliers dropped."""
    if len(pts) < 8:
        return None
    keep = np.ones(len(pts), bool)
    circle = None
    for _ in range(3):
        p = pts[keep]
        if len(p) < 8:
            return None
        a = np.column_stack([2 * p[:, 0], 2 * p[:, 1], np.ones(len(p))])
        b = (p**2).sum(1)
        sol, *_ = np.linalg.lstsq(a, b, rcond=None)
        cx, cy = sol[0], sol[1]
        rr = float(np.sqrt(max(sol[2] + cx * cx + cy * cy, 1e-9)))
        circle = (float(cx), float(cy), rr)
        res = np.abs(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) - rr)
        new = res < max(0.8, 0.12 * r_expected)
        if new.sum() < 8 or np.array_equal(new, keep):
            keep = new if new.sum() >= 8 else keep
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

    def learn(self, image: np.ndarray) -> ClothModel:
        """Learn the cloth (and reset colour prototypes) from a frame."""
        self.cloth = ClothModel.learn(image, self.view)
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
        if self.cloth is None:
            self.learn(image)
        rx0, ry0, rx1, ry1 = self.view.roi
        boxes = [(rx0, ry0, rx1, ry1)] if regions is None else list(regions)
        found_px: list[np.ndarray] = []
        found_r: list[np.ndarray] = []
        found_q: list[np.ndarray] = []
        for bx0, by0, bx1, by1 in boxes:
            x0, y0 = max(bx0, rx0), max(by0, ry0)
            x1, y1 = min(bx1, rx1), min(by1, ry1)
            if x1 - x0 < 4 or y1 - y0 < 4:
                continue
            c, r, q = self._detect_box(image, (x0, y0, x1, y1))
            found_px.append(c)
            found_r.append(r)
            found_q.append(q)
        if not found_px:
            return Detections.empty(frame)
        xy = np.concatenate(found_px)
        rad = np.concatenate(found_r)
        qual = np.concatenate(found_q)
        if regions is not None and len(xy) > 1:
            xy, rad, qual = _dedupe(xy, rad, qual)
        xy_mm = self.view.to_table(xy)
        on = self.view.on_bed(xy_mm, margin_mm=0.35 * self.view.ball_radius_mm)
        on &= ~self._in_pocket_mouth(xy_mm)
        xy, rad, qual, xy_mm = xy[on], rad[on], qual[on], xy_mm[on]
        probs = self.classifier.classify(image, xy, rad, self.cloth, qual)
        if regions is None and not self.colours_learned and isinstance(
            self.classifier, ColourRules
        ):
            if self.learn_colours(image, xy, rad, xy_mm, probs):
                probs = self.classifier.classify(image, xy, rad, self.cloth, qual)
        if regions is None and self.constrain:
            probs = constrain_kinds(probs)
        keep = probs[:, -1] < 0.5
        return Detections(xy[keep], xy_mm[keep], rad[keep], probs[keep], frame=frame)

    def _in_pocket_mouth(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: centres in a pocket mouth, beyond where a ball can rest."""
        spec = self.view.cal.spec
        r = spec.ball_radius
        out = np.zeros(len(xy_mm), bool)
        if len(xy_mm) == 0:
            return out
        beyond = ~self.view.on_bed(xy_mm, margin_mm=POCKET_MARGIN_MM)
        for pocket, pt in spec.pockets.items():
            near = np.linalg.norm(xy_mm - np.asarray(pt), axis=1) < (
                0.5 * spec.pocket_mouth(pocket) + 2 * r)
            out |= near & beyond
        return out

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
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        assert self.cloth is not None
        x0, y0, x1, y1 = box
        rx0, ry0 = self.view.roi[:2]
        fg = self.cloth.foreground(image[y0:y1, x0:x1], (x0 - rx0, y0 - ry0))
        bed = self.view.bed_mask[y0 - ry0 : y1 - ry0, x0 - rx0 : x1 - rx0]
        fg *= bed
        mask = (fg >= 0.5).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        rmin = float(self.view.radius_px(np.array([[x0, y0], [x1, y1]])).min())
        peaks = _peaks(dist, max(rmin, 3.0))
        if len(peaks) == 0:
            return np.zeros((0, 2)), np.zeros(0), np.zeros(0)
        full = peaks + np.array([x0, y0])
        r_exp = self.view.radius_px(full)
        dval = dist[peaks[:, 1].astype(int), peaks[:, 0].astype(int)]
        ok = (r_exp > 1.5) & (dval >= 0.4 * r_exp)
        peaks, r_exp, dval = peaks[ok], r_exp[ok], dval[ok]
        peaks, r_exp, dval = _nms(peaks, r_exp, dval)
        c, r, q = fit_circles(fg, peaks, r_exp, None)
        # balls inside a cluster (the pack) show too little outline to fit: a deep
        # distance-transform peak is kept at its sub-pixel maximum
        deep = (q < 0.3) & (dval >= 0.7 * r_exp)
        if deep.any():
            c[deep] = _subpixel_peaks(dist, peaks[deep])
            r[deep] = r_exp[deep]
            q[deep] = 0.3
        good = q >= 0.3
        c, r, q = c[good], r[good], q[good]
        if len(c) > 1:
            c, r, q = _dedupe(c, r, q)
        c, r, q = self._add_highlight_seeds(image[y0:y1, x0:x1], mask, (x0, y0),
                                            c, r, q)
        # a ball is a filled disc: lines, arcs, spots and shadow edges are not
        disc = disc_coverage(fg, c, self.view.radius_px(c + np.array([x0, y0])))
        keep = disc >= MIN_DISC_COVER
        c, r, q = c[keep], r[keep], q[keep]
        return c + np.array([x0, y0]), r, q

    def _add_highlight_seeds(
        self,
        crop: np.ndarray,
        mask: np.ndarray,
        origin: tuple[int, int],
        c: np.ndarray,
        r: np.ndarray,
        q: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Balls inside clusters found from their specular highlights.

        Every ball shows the lights' reflection at about the same place relative to
        its centre (in radii); the offset is measured on this frame's well-fitted
        single balls. Each highlight blob inside a cluster larger than a ball that
        no candidate explains yet becomes a candidate at highlight - offset.
        """
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        r_med = float(np.median(r)) if len(r) else 6.0
        big = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= 1.4 * np.pi * r_med**2)
        if len(big) == 0 and self._highlight_offset is not None:
            return c, r, q  # no cluster here, and the offset is known
        hl, strength = find_highlights(crop, mask, r_med)
        if len(hl) == 0:
            return c, r, q
        offsets, strengths = [], []
        for ci, ri, qi in zip(c, r, q, strict=True):
            if qi < 0.6:
                continue
            d = np.linalg.norm(hl - ci, axis=1)
            j = int(np.argmin(d))
            if d[j] < 0.85 * ri:
                offsets.append((hl[j] - ci) / ri)
                strengths.append(strength[j])
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
            return c, r, q
        strong = strength >= 0.45 * self._highlight_strength
        hl = hl[strong]
        # which blobs are clusters (bigger than one ball)
        full = hl + np.array(origin)
        r_exp = self.view.radius_px(full)
        hi, wi = mask.shape
        lab = labels[np.clip(hl[:, 1].astype(int), 0, hi - 1),
                     np.clip(hl[:, 0].astype(int), 0, wi - 1)]
        cluster = np.zeros(n, bool)
        for k in range(len(hl)):
            area = stats[lab[k], cv2.CC_STAT_AREA]
            if lab[k] and area >= 1.6 * np.pi * r_exp[k] ** 2:
                cluster[lab[k]] = True
        if not cluster.any():
            return c, r, q
        # in clusters, only well-fitted candidates stand; highlights do the rest
        ci = np.clip(np.round(c).astype(int), 0, [wi - 1, hi - 1]) if len(c) else \
            np.zeros((0, 2), int)
        c_lab = labels[ci[:, 1], ci[:, 0]] if len(c) else np.zeros(0, int)
        keep = ~cluster[c_lab] | (q >= 0.6)
        c, r, q = c[keep], r[keep], q[keep]
        add_c, add_r = [], []
        for k in np.argsort(-strength[strong]):
            if not cluster[lab[k]] or r_exp[k] < 1.5:
                continue
            seed = hl[k] - off * r_exp[k]
            near = [p for p in (*c, *add_c)
                    if np.hypot(*(np.asarray(p) - seed)) < 0.7 * r_exp[k]]
            if near:
                continue
            add_c.append(seed)
            add_r.append(r_exp[k])
        if not add_c:
            return c, r, q
        c2 = np.array(add_c)
        r2 = np.array(add_r)
        return (np.concatenate([c, c2]), np.concatenate([r, r2]),
                np.concatenate([q, np.full(len(c2), 0.3)]))


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
    low = crop.min(axis=2)
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


def _subpixel_peaks(dist: np.ndarray, peaks: np.ndarray) -> np.ndarray:
    """Quadratic sub-pixel maxima of ``dist`` near integer-ish ``peaks`` (N, 2)."""
    out = peaks.astype(np.float64).copy()
    h, w = dist.shape
    for i, (x, y) in enumerate(np.round(peaks).astype(int)):
        if not (1 <= x < w - 1 and 1 <= y < h - 1):
            continue
        c = float(dist[y, x])
        for axis, (a, b) in enumerate(
            ((dist[y, x - 1], dist[y, x + 1]), (dist[y - 1, x], dist[y + 1, x]))
        ):
            a, b = float(a), float(b)  # float64: no float32 overflow
            den = a - 2 * c + b
            off = 0.5 * (a - b) / den if den < -1e-6 else 0.0
            out[i, axis] = (x, y)[axis] + float(np.clip(off, -0.5, 0.5))
    return out


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


def _dedupe(
    c: np.ndarray, r: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Merge fits that converged onto the same ball (keep the best quality)."""
    order = np.argsort(-q)
    kept: list[int] = []
    for i in order:
        if all(np.hypot(*(c[i] - c[j])) >= 0.6 * r[i] for j in kept):
            kept.append(int(i))
    idx = np.array(sorted(kept), dtype=int)
    return c[idx], r[idx], q[idx]
