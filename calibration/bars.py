"""TV score bars: found in a frame so that their edges are not taken for the
table's, and the cushions under them count as hidden."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

WORK_WIDTH = 960
"""Cloth and score bars are looked for on a copy of the frame scaled to this width
at most (speed)."""


@dataclass(frozen=True)
class ScoreBar:
    """A TV score bar found in a frame.

    Attributes:
        box: (x0, y0, x1, y1) px of the frame it was found in, edges included.
        value: HSV value (brightest channel) of its colour, 0-255.
    """

    box: tuple[int, int, int, int]
    value: float

    def slices(self, scale: float = 1.0) -> tuple[slice, slice]:
        """(rows, columns) covering the bar with a pixel to spare, in a copy of
        the frame scaled by ``scale``."""
        x0, y0, x1, y1 = self.box
        return (slice(max(int((y0 - 1) * scale), 0), int((y1 + 2) * scale)),
                slice(max(int((x0 - 1) * scale), 0), int((x1 + 2) * scale)))


def _runs(row: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """(first, last) index of each run of True in ``row`` (1-D bool), gaps of up to
    ``gap`` False bridged."""
    idx = np.flatnonzero(row)
    if len(idx) == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) > gap + 1)
    firsts = np.concatenate([[idx[0]], idx[breaks + 1]])
    lasts = np.concatenate([idx[breaks], [idx[-1]]])
    return list(zip(firsts.tolist(), lasts.tolist(), strict=True))


def score_bars(image: np.ndarray) -> list[ScoreBar]:
    """TV score bars in the lower half of ``image`` (BGR uint8), in its pixels.

    A bar is an axis-aligned box of one colour (its text aside): a top and a
    bottom edge at single rows, 2-15 % of the height apart, over a common stretch
    of at least a fifth of the width, and an upright edge near each end of that
    stretch (where the bar's end meets a pocket, its top edge may fade a little
    short of it). A broadcast view's table sides are never level and upright at
    once; an overhead view's cushion strip and rail are, so what is taken for a
    bar is judged by its colour too (``hide_bars``).
    """
    h, w = image.shape[:2]
    top = h // 2
    low = image[top:]
    thr = 20  # colour step across an edge, per channel

    def steps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        d = cv2.absdiff(a, b)
        return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) > thr

    dy = steps(low[2:], low[:-2])  # row k: between rows k and k + 2
    # column c: between columns c and c + 2; summed down the rows, so that the
    # share of a band of rows with an upright edge at c is a difference
    upright_sum = np.zeros((len(low) + 1, w - 2), np.int32)
    np.cumsum(steps(low[:, 2:], low[:, :-2]), axis=0, out=upright_sum[1:])
    runs = {
        k + 1: long
        for k in np.flatnonzero(dy.mean(axis=1) >= 0.2)
        if (long := [(a, b + 2) for a, b in _runs(dy[k], 2) if b - a >= 0.2 * w])
    }
    lo, hi = int(0.02 * h), int(0.15 * h)
    reach = int(0.05 * w)  # how far past its edges' runs a bar's end may be
    bars: list[ScoreBar] = []
    rows = sorted(runs)
    for i, y0 in enumerate(rows):
        for y1 in rows[i + 1 :]:
            if not lo <= y1 - y0 <= hi or any(
                abs(y0 + top - b.box[1]) <= 3 and abs(y1 + top - b.box[3]) <= 3
                for b in bars
            ):
                continue
            upright = (upright_sum[y1] - upright_sum[y0 + 1]) / (y1 - y0 - 1)
            for (a0, b0), (a1, b1) in ((r0, r1) for r0 in runs[y0] for r1 in runs[y1]):
                if min(b0, b1) - max(a0, a1) < 0.2 * w:
                    continue
                ends = []
                for lo_x, hi_x in ((min(a0, a1), max(a0, a1)), (min(b0, b1) - 2,
                                                                 max(b0, b1) - 2)):
                    first = max(lo_x - reach, 0)
                    window = upright[first : hi_x + reach]
                    if len(window) and window.max() > 0.6:
                        ends.append(first + int(np.argmax(window)) + 1)
                if len(ends) < 2:
                    continue
                x0, x1 = ends
                # about 8 x 64 pixels of it, enough for its colour
                inside = low[y0 + 2 : y1 - 1 : max(1, (y1 - y0) // 8),
                             x0 + 2 : x1 - 1 : max(1, (x1 - x0) // 64)].reshape(-1, 3)
                colour = np.median(inside, axis=0)
                same = np.all(np.abs(inside - colour) < 12, axis=1)
                if same.mean() > 0.6:
                    box = (int(x0), int(y0) + top, int(x1), int(y1) + top)
                    bars.append(ScoreBar(box, float(colour.max())))
    return bars


def find_bars(image: np.ndarray) -> list[ScoreBar]:
    """``score_bars`` of ``image`` (BGR uint8), looked for at ``WORK_WIDTH`` at most
    and given in the frame's own pixels."""
    scale = min(1.0, WORK_WIDTH / image.shape[1])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return [
        ScoreBar((int(x0 / scale), int(y0 / scale), int(x1 / scale),
                  int(y1 / scale)), bar.value)
        for bar in score_bars(small)
        for x0, y0, x1, y1 in [bar.box]
    ]


def hide_bars(
    cloth: np.ndarray, bars: Sequence[ScoreBar], cloth_value: float, scale: float = 1.0
) -> np.ndarray:
    """``cloth`` ((H, W): 1 where a frame has the cloth's hue) with the score bars
    of about the cloth's hue set to 0: their edges are not the table's.

    Only bars darker than ``DARK_SHARE`` of ``cloth_value`` (the bed's HSV value)
    count: an overhead view's cushion strip, level and upright like a bar, is as
    bright as the bed; a bar of another hue is not cloth anyway.

    Args:
        cloth: The map; a copy is returned when something is hidden.
        bars: Found in the frame (``find_bars``).
        cloth_value: The bed's HSV value, 0-255.
        scale: The map's pixels per frame pixel.
    """
    out = cloth
    for bar in bars:
        box = bar.slices(scale)
        if bar.value < DARK_SHARE * cloth_value and cloth[box].mean() > 0.5:
            out = out.copy() if out is cloth else out
            out[box] = 0
    return out


DARK_SHARE = 0.7
"""A score bar counts only when darker than this share of the bed's brightness."""
