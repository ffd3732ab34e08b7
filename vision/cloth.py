"""The cloth's colour, learned from the footage, and "not cloth" maps.

Everything that differs from the cloth in chromaticity (brightness-free colour, so
contact shadows and the lights' falloff do not count) or is much brighter than the
cloth around it is foreground. The cloth's colour and spread are measured on the
frame itself, so no table needs tuning.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from vision.geometry import TableView


@dataclass(frozen=True, eq=False)
class ClothModel:
    """Cloth colour statistics of one camera view.

    Attributes:
        bgr: (3,) float32 median cloth colour (BGR, 0-255): the white balance
            reference for patches.
        chroma: (2,) float32 median chromaticity (B/S, R/S), S = B + G + R.
        chroma_sigma: (2,) float32 robust spread of the chromaticity.
        brightness: (H, W) float32 local cloth brightness S over the view's roi,
            balls removed (a heavy median), for the "brighter than cloth" test.
        origin: (x, y) px of the roi's top-left in the frame.
        local_chroma: (H, W, 2) float32 local cloth chromaticity (B/S, R/S) over
            the roi, balls removed (coloured light falls off across real tables),
            or None to use ``chroma`` everywhere.
        edge_fg: (H, W) float32 "not cloth" strength of what does not move at the
            bed's edges (the cushions' faces and noses, the pockets' mouths),
            taken off ``foreground`` there, or None (``with_edges``).
        edge_contrast: (H, W) float32 the same for ``contrast``, or None.
        holes: (H, W) bool, where the pockets' holes (and what else is dark,
            or beyond the cushion noses, about the pockets' mouths) stood in
            the learning frame, or None (``with_edges``).
        jaws: (H, W) bool, about the pockets' mouths, what else read as not
            cloth (foreground of ``JAWS_FG`` or more) in the learning frame
            where no ball stood (the jaws' faces and their shadows, seen from
            over the bed), or None (``with_edges``, ``clear_of``).
        hole_bgr: (H, W, 3) float32 the learning frame's colour at ``holes``
            and ``jaws`` (blurred as ``foreground`` blurs), or None.
    """

    bgr: np.ndarray
    chroma: np.ndarray
    chroma_sigma: np.ndarray
    brightness: np.ndarray
    origin: tuple[int, int] = (0, 0)
    local_chroma: np.ndarray | None = None
    edge_fg: np.ndarray | None = None
    edge_contrast: np.ndarray | None = None
    holes: np.ndarray | None = None
    jaws: np.ndarray | None = None
    hole_bgr: np.ndarray | None = None

    def local_bgr(self, xy_px: np.ndarray) -> np.ndarray:
        """(N, 3) float32 cloth colour at frame points (N, 2): the median colour
        scaled by the local brightness (vignetting, lights)."""
        xy = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
        h, w = self.brightness.shape
        ix = np.clip(np.round(xy[:, 0] - self.origin[0]).astype(int), 0, w - 1)
        iy = np.clip(np.round(xy[:, 1] - self.origin[1]).astype(int), 0, h - 1)
        k = self.brightness[iy, ix] / max(float(self.bgr.sum()), 1.0)
        return (self.bgr[None, :] * k[:, None]).astype(np.float32)

    @staticmethod
    def learn(image: np.ndarray, view: TableView) -> ClothModel:
        """Learn the cloth from a BGR uint8 frame seen through ``view``."""
        x0, y0, x1, y1 = view.roi
        roi = image[y0:y1, x0:x1]
        r = float(np.median(view.radius_px(_roi_grid(view))))
        inner = cv2.erode(
            view.bed_mask, np.ones((3, 3), np.uint8), iterations=max(2, int(2 * r))
        )
        if inner.sum() < 100:
            inner = view.bed_mask
        step = 3
        sel = inner[::step, ::step].astype(bool)
        pix = roi[::step, ::step][sel].astype(np.float32)
        if len(pix) < 10:
            raise ValueError("no cloth visible in the table area")
        s = pix.sum(1) + 1.0
        ch = np.column_stack([pix[:, 0] / s, pix[:, 2] / s])
        med = np.median(ch, axis=0)
        dist = np.abs(ch - med).max(1)
        # balls and markings are a small minority: keep the bulk near the median
        keep = dist < np.quantile(dist, 0.8)
        med = np.median(ch[keep], axis=0)
        mad = np.median(np.abs(ch[keep] - med), axis=0) * 1.4826
        bgr = np.median(pix[keep], axis=0)
        cloth = _cloth_pixels(roi, inner, med, float(np.median(s[keep])),
                              max(CLOTH_GATE_MADS * float(mad.max()), CLOTH_GATE))
        bright = _local_brightness(roi, cloth, float(np.median(s[keep])), r)
        chans = [_local_brightness(roi[..., c : c + 1], cloth, float(bgr[c]), r,
                                   ch_scale=1.0) for c in (0, 2)]
        local = np.stack([chans[0], chans[1]], axis=2) / np.maximum(
            bright, 1.0)[..., None]
        # spread around the local (not the global) chromaticity
        sub = local[::step, ::step][sel]
        mad = np.median(np.abs(ch[keep] - sub[keep]), axis=0) * 1.4826
        return ClothModel(
            bgr=bgr.astype(np.float32),
            chroma=med.astype(np.float32),
            chroma_sigma=np.maximum(mad, 0.004).astype(np.float32),
            brightness=bright,
            origin=(x0, y0),
            local_chroma=local.astype(np.float32),
        )

    def foreground(self, roi_bgr: np.ndarray, offset: tuple[int, int] = (0, 0),
                   jaws: bool = False) -> np.ndarray:
        """(H, W) float32 "not cloth" strength (about 0 on cloth, >= 1 on balls).

        Args:
            roi_bgr: BGR uint8 crop of the frame.
            offset: (x, y) of the crop's top-left within the view's roi.
            jaws: Read the ``jaws`` pixels as the ``holes`` are read: only what
                differs from the learning frame there is foreground. (For
                whether a place in a pocket's mouth is bare; detection leaves
                them out, so that a ball there in the learning frame is seen.)
        """
        img = cv2.GaussianBlur(roi_bgr, (3, 3), 0.8).astype(np.float32)
        s = img.sum(axis=2) + 3.0
        ox, oy = offset
        h, w = s.shape
        if self.local_chroma is not None:
            lc = self.local_chroma[oy : oy + h, ox : ox + w]
            b = img[..., 0] / s - lc[..., 0]
            r = img[..., 2] / s - lc[..., 1]
        else:
            b = img[..., 0] / s - self.chroma[0]
            r = img[..., 2] / s - self.chroma[1]
        # chromaticity noise grows in dark pixels: widen the spread there
        noise = 2.5 / s
        sb = np.sqrt(self.chroma_sigma[0] ** 2 + noise**2)
        sr = np.sqrt(self.chroma_sigma[1] ** 2 + noise**2)
        dc = np.sqrt((b / sb) ** 2 + (r / sr) ** 2)
        local = self.brightness[oy : oy + h, ox : ox + w]
        q = s / np.maximum(local, 1.0)
        fg = np.maximum(dc / 10.0, (q - 1.0) / 0.6)
        fg = np.maximum(fg, (0.6 - q) / 0.25)
        if self.edge_fg is not None:
            fg -= self.edge_fg[oy : oy + h, ox : ox + w]
        self._cap_by_change(fg, img, (ox, oy), HOLE_CHANGE, self.holes)
        if jaws:
            self._cap_by_change(fg, img, (ox, oy), HOLE_CHANGE, self.jaws)
        return fg.astype(np.float32)

    def _cap_by_change(self, values: np.ndarray, img: np.ndarray,
                       offset: tuple[int, int], per: float,
                       where: np.ndarray | None) -> None:
        """Cap ``values`` (H, W), a map of the BGR crop ``img`` at ``offset`` in
        the roi, in place at the ``where`` pixels (``holes`` or ``jaws``): no
        more than their colour's distance from the learning frame's, over
        ``per``."""
        if where is None or self.hole_bgr is None:
            return
        ox, oy = offset
        h, w = values.shape
        mask = where[oy : oy + h, ox : ox + w]
        if not mask.any():
            return
        _, change = self._learned_change(img, offset, mask)
        values[mask] = np.minimum(values[mask], change / per)

    def _learned_change(self, img: np.ndarray, offset: tuple[int, int],
                        mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The learning frame's colour (``hole_bgr``) at the ``mask`` pixels of
        the BGR crop ``img`` at ``offset`` in the roi ((K, 3)), and theirs'
        distance from it ((K,))."""
        ox, oy = offset
        h, w = mask.shape
        ref = self.hole_bgr[oy : oy + h, ox : ox + w][mask]
        return ref, np.linalg.norm(img[mask] - ref, axis=1)

    def blind(self, roi_bgr: np.ndarray, offset: tuple[int, int] = (0, 0)
              ) -> np.ndarray:
        """(H, W) uint8 map of where detection's foreground cannot tell a dark
        ball from the table: 2 on the ``holes`` pixels that were dark in the
        learning frame and still differ from it by less than half
        ``HOLE_CHANGE`` (the black before a far pocket of a broadcast view,
        over the hole and the dark rail behind it, reads 10 to 20 off them:
        seed 3086's), 1 on the ``jaws`` (never capped in detection: foreground
        with or without a ball), 0 elsewhere. ``roi_bgr``: BGR uint8 crop at
        ``offset`` in the roi."""
        h, w = roi_bgr.shape[:2]
        out = np.zeros((h, w), np.uint8)
        if self.holes is None or self.hole_bgr is None:
            return out
        ox, oy = offset
        if self.jaws is not None:
            out[self.jaws[oy : oy + h, ox : ox + w]] = 1
        mask = self.holes[oy : oy + h, ox : ox + w]
        if not mask.any():
            return out
        img = cv2.GaussianBlur(roi_bgr, (3, 3), 0.8).astype(np.float32)
        ref, change = self._learned_change(img, offset, mask)
        dark = ref.sum(axis=1) + 3.0 < HOLE_DARK * np.maximum(
            self.brightness[oy : oy + h, ox : ox + w][mask], 1.0)
        out[mask] = np.where(dark & (change < 0.5 * HOLE_CHANGE), 2, 0)
        return out

    def with_edges(self, image: np.ndarray, view: TableView) -> ClothModel:
        """This model with ``edge_fg`` learned from a BGR uint8 frame.

        Near the cushions the cloth's smooth maps do not hold: seen from a
        broadcast angle, the far cushion's face and the line of its nose read
        as half foreground, join the blob of a ball before them and pull its
        fit by pixels, 20 to 40 mm there (seeds 472 and 500, the white crawling
        and jittering at the far cushion). What does not move there is taken
        off: weak foreground in the band within two ball radii of the bed's
        image edge, away from strong foreground (more than ``EDGE_FG_MAX``: a
        ball, or a hand) by half a ball's radius.

        The pockets' holes are dark, strong foreground that does not move: a
        ball before one (the white in a far corner's mouth, from a broadcast
        angle) joined it in one blob and was fitted half into the hole, 40 to
        100 mm deep on the table (seed 530), or not found at all. About each
        pocket's mouth, what is darker than the cloth in this frame, or lies
        beyond the cushion noses (the jaws' faces, the rail), is kept
        (``holes``, with its colour): there only what differs from it is
        foreground. (A ball resting there in this frame would be taken for the
        table until it moves.) What else about the mouths reads as not cloth,
        over the bed, is kept as ``jaws``: the jaws' faces and their shadows,
        seen from over the bed, made an empty place in a pocket's mouth read
        0.47 to 0.64 covered in overhead views (seed 3265's red, knocked in
        unseen from the top-left jaws, was held there for good); balls in this
        frame are taken off it by ``clear_of``.
        """
        x0, y0, x1, y1 = view.roi
        roi = image[y0:y1, x0:x1]
        fg = self.foreground(roi)
        r = float(np.median(view.radius_px(_roi_grid(view))))
        inner = cv2.erode(view.bed_mask, np.ones((3, 3), np.uint8),
                          iterations=max(2, int(2 * r)))
        band = (view.bed_mask > 0) & (inner == 0)
        k = 2 * round(0.5 * r + 2) + 1
        strong = cv2.dilate((fg > EDGE_FG_MAX).astype(np.uint8),
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        keep = band & (strong == 0)
        edge = np.where(keep, np.clip(fg, 0.0, 1.0), 0.0).astype(np.float32)
        con = self.contrast(roi)
        edge_con = np.where(keep, con, 0.0).astype(np.float32)
        blurred = cv2.GaussianBlur(roi, (3, 3), 0.8).astype(np.float32)
        dark = blurred.sum(axis=2) + 3.0 < HOLE_DARK * np.maximum(self.brightness,
                                                                  1.0)
        about, off_bed = _about_pockets(view)
        holes = about & (dark | off_bed)
        jaws = about & ~holes & (fg >= JAWS_FG)
        return dataclasses.replace(
            self, edge_fg=np.where(holes, 0.0, edge).astype(np.float32),
            edge_contrast=np.where(holes, 0.0, edge_con).astype(np.float32),
            holes=holes, jaws=jaws,
            hole_bgr=np.where((holes | jaws)[..., None], blurred, 0.0).astype(
                np.float32))

    def clear_of(self, xy_px: np.ndarray, radii_px: np.ndarray) -> ClothModel:
        """This model with the balls of the learning frame, at (N, 2) frame px
        with (N,) radii px, taken off ``jaws`` (each disc widened by
        ``JAWS_BALL_PAD``, for its shadow): a ball at rest there then reads as
        itself, not as the jaws."""
        if self.jaws is None or not len(xy_px):
            return self
        balls = np.zeros(self.jaws.shape, np.uint8)
        for (x, y), r in zip(np.asarray(xy_px) - self.origin, radii_px,
                             strict=True):
            cv2.circle(balls, (round(x), round(y)),
                       int(np.ceil(JAWS_BALL_PAD * r)), 1, -1)
        return dataclasses.replace(self, jaws=self.jaws & (balls == 0))

    def contrast(self, roi_bgr: np.ndarray, offset: tuple[int, int] = (0, 0),
                 ) -> np.ndarray:
        """(H, W) float32 distance of each pixel's BGR from the local cloth colour.

        Unlike ``foreground`` it grows in proportion to the share of a pixel that
        a ball covers, so along a ray out of a ball it falls fastest at the
        ball's true edge whatever the ball's colour (``vision.detect.fit_circles``).

        Args:
            roi_bgr: BGR uint8 crop of the frame.
            offset: (x, y) of the crop's top-left within the view's roi.
        """
        ox, oy = offset
        h, w = roi_bgr.shape[:2]
        s = self.brightness[oy : oy + h, ox : ox + w]
        if self.local_chroma is not None:
            lc = self.local_chroma[oy : oy + h, ox : ox + w]
            cb, cr = lc[..., 0] * s, lc[..., 1] * s
        else:
            cb, cr = self.chroma[0] * s, self.chroma[1] * s
        db = roi_bgr[..., 0] - cb
        dg = roi_bgr[..., 1] - (s - cb - cr)
        dr = roi_bgr[..., 2] - cr
        con = np.sqrt(db * db + dg * dg + dr * dr)
        self._cap_by_change(con, roi_bgr, (ox, oy), 1.0, self.holes)
        if self.edge_contrast is not None:
            con = np.maximum(con - self.edge_contrast[oy : oy + h, ox : ox + w], 0.0)
        return con.astype(np.float32)


EDGE_FG_MAX = 1.5
"""Foreground stronger than this at the bed's edges in the learning frame is a
ball (or a hand), not the cushions' structure (``ClothModel.with_edges``; a
cushion's face and nose line read 0.3-0.9)."""


HOLE_DARK = 0.6
"""Darker than this share of the cloth's local brightness, about a pocket's mouth
in the learning frame, is the pocket's hole (``ClothModel.with_edges``)."""

HOLE_CHANGE = 40.0
"""Distance of a hole pixel's colour from the learning frame's (0-255 BGR) that
counts as foreground 1 (``ClothModel.foreground``)."""

JAWS_FG = 0.5
"""Foreground this strong about a pocket's mouth, over the bed, in the learning
frame, is the jaws (``ClothModel.with_edges``): where ``disc_coverage`` counts
a pixel."""

JAWS_BALL_PAD = 1.5
"""A ball of the learning frame is taken off the ``jaws`` out to this many of its
radii (``ClothModel.clear_of``)."""

HOLE_REACH = 1.6
"""How far about a pocket point the holes are looked for, in mouth widths."""


def _about_pockets(view: TableView) -> tuple[np.ndarray, np.ndarray]:
    """(H, W) bool maps over the roi: pixels whose line of sight meets the bed's
    plane, or the plane of the balls' tops where the camera's pose is known,
    within ``HOLE_REACH`` mouth widths of a pocket point, and those that meet
    the bed's plane beyond the cushion noses (only the pixels about the pockets
    are mapped: the image box of each pocket's reach).

    The balls' tops count because a ball in a far pocket's jaws, seen from a
    broadcast angle, rises in the image over the rail behind it: taken only
    from the bed's plane, that rail lay outside, read as strong foreground that
    nothing capped, and joined the ball's blob (seed 3332: the white at rest in
    the far top-right jaws, never found and called potted).
    """
    x0, y0, x1, y1 = view.roi
    spec = view.cal.spec
    shape = (y1 - y0, x1 - x0)
    near = np.zeros(shape, bool)
    off = np.zeros(shape, bool)
    ring = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    heights = (0.0,) if view.cal.pose is None else (0.0, 2 * spec.ball_radius)
    for pocket, at in spec.pockets.items():
        reach = HOLE_REACH * spec.pocket_mouth(pocket)
        centre = np.asarray(at, np.float64)
        edge = centre + reach * np.column_stack([np.cos(ring), np.sin(ring)])
        px = np.vstack([view.cal.table_to_image(edge, z_mm=z) for z in heights])
        if not np.isfinite(px).all():
            continue
        bx0, by0 = np.maximum(np.floor(px.min(axis=0)).astype(int), (x0, y0))
        bx1, by1 = np.minimum(np.ceil(px.max(axis=0)).astype(int) + 1, (x1, y1))
        if bx1 <= bx0 or by1 <= by0:
            continue
        ys, xs = np.mgrid[by0:by1, bx0:bx1]
        grid = np.column_stack([xs.ravel(), ys.ravel()]).astype(np.float64)
        box = (slice(by0 - y0, by1 - y0), slice(bx0 - x0, bx1 - x0))
        mm = view.cal.image_to_table(grid)
        here = np.linalg.norm(mm - centre, axis=1) < reach
        for z in heights[1:]:
            here |= np.linalg.norm(view.cal.image_to_table(grid, z_mm=z) - centre,
                                   axis=1) < reach
        here = here.reshape(ys.shape)
        near[box] |= here
        off[box] |= here & ((np.abs(mm[:, 0]) > spec.half_length) | (
            np.abs(mm[:, 1]) > spec.half_width)).reshape(ys.shape)
    return near, off


CLOTH_GATE = 0.04
"""Least chromaticity difference (B/S or R/S) from the cloth's median that marks a
pixel of the learning frame as no cloth (``_cloth_pixels``): a red reads 0.5 off,
a white 0.15."""

CLOTH_GATE_MADS = 10.0
"""The same in robust spreads of the cloth's chromaticity, where that is more
(coloured light falling off across a real table)."""


def _cloth_pixels(roi: np.ndarray, inner: np.ndarray, chroma: np.ndarray,
                  brightness: float, gate: float) -> np.ndarray:
    """(H, W) uint8 mask of the bed's pixels (``inner``) in a BGR ``roi`` that look
    like cloth: chromaticity within ``gate`` of ``chroma`` and brightness within
    half to one and a half times ``brightness``. The local cloth colour is learned
    from these alone: a pack of reds fills most of the median's window, and had
    left the cloth where the pack stood read as not cloth for the rest of the
    footage (seed 643: a white rolling there was unseen for 17 frames). The bed's
    mask where too few pixels pass."""
    pix = roi.astype(np.float32)
    s = pix.sum(axis=2) + 1.0
    near = ((np.abs(pix[..., 0] / s - chroma[0]) < gate)
            & (np.abs(pix[..., 2] / s - chroma[1]) < gate)
            & (s > 0.5 * brightness) & (s < 1.5 * brightness))
    cloth = (near & (inner > 0)).astype(np.uint8)
    return cloth if cloth.sum() >= 0.5 * inner.sum() else inner


def _roi_grid(view: TableView, n: int = 7) -> np.ndarray:
    x0, y0, x1, y1 = view.roi
    gx, gy = np.meshgrid(np.linspace(x0, x1, n), np.linspace(y0, y1, n))
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    ok = view.on_bed(view.to_table(pts))
    return pts[ok] if ok.any() else pts


def _local_brightness(
    roi: np.ndarray, mask: np.ndarray, fallback: float, radius_px: float,
    ch_scale: float = 3.0,
) -> np.ndarray:
    """Cloth brightness (sum of the channels of ``roi``) at every roi pixel, from
    the pixels of ``mask`` (the cloth's), what else is left removed by a heavy
    median; ``ch_scale`` is the most the sum can be, in 255s."""
    cloth = (mask > 0).astype(np.float32)
    s = roi.astype(np.float32).sum(axis=2) * cloth
    k = max(2, int(radius_px))
    total = cv2.resize(s, None, fx=1 / k, fy=1 / k, interpolation=cv2.INTER_AREA)
    share = cv2.resize(cloth, (total.shape[1], total.shape[0]),
                       interpolation=cv2.INTER_AREA)
    small = np.where(share >= 0.25, total / np.maximum(share, 1e-6), fallback)
    u8 = np.clip(small / ch_scale, 0, 255).astype(np.uint8)
    med = cv2.medianBlur(u8, 9).astype(np.float32) * ch_scale
    med = cv2.blur(med, (5, 5))
    return cv2.resize(med, (s.shape[1], s.shape[0]), interpolation=cv2.INTER_LINEAR)
