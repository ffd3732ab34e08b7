"""Self-check: does a calibration agree with the frame it was made from?

Every automatic calibration goes through ``verify`` before it is returned, whatever
made it. The table's marks are projected back into the frame and looked for there:

* the baulk line and the D: thin bright chalk lines on the cloth (z = 0) must be
  found within a few millimetres of where the calibration puts them;
* each cushion: the strongest brightness edge across it must lie between the
  projected nose (z = nose height) and the projected bed edge under it (z = 0), the
  band where the nose, its shadow line or the cushion face show;
* the pockets: the pocket openings must not look like the cloth (a misplaced pocket
  lands on the cushion top or the bed).

Distances are judged in table millimetres, so the thresholds mean the same for a
near and a far cushion. A calibration that fails is rejected with the reason
(``CalibrationError``): a reported failure, never a wrong answer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.bars import ScoreBar, find_bars, hide_bars
from calibration.mapping import Calibration, CalibrationError
from calibration.table import CUSHION_NOSE_HEIGHT_MM

LINE_TOL_MM = 8.0
"""Largest median distance (mm) of the found baulk line and D from the predicted."""

LINE_TOL_PX = 2.5
"""... or this many pixels where that is more (a far, thin line)."""

BAND_TOL_MM = 8.0
"""Slack (mm) for a cushion's nose and bed edge ..."""

BAND_TOL_PX = 4.5
"""... or this many pixels where that is more: the corners a person labels on a far
cushion are good to a few pixels, which there is tens of millimetres."""

LIT_SHARE = 0.6
"""The open bed beside a cushion has at least this share of the bed's median
brightness (HSV value); a darker cloth-hued pixel there is something over it (a
score bar of about the cloth's colour)."""

CUSHIONS = ("baulk_cushion", "right_cushion", "top_cushion", "left_cushion")


@dataclass(frozen=True)
class Verdict:
    """What the self-check found.

    Attributes:
        ok: True when every check passed.
        reason: Why it failed ("" when ok).
        line_offset: Median distance of the baulk line and D samples from their
            predicted place, in tolerances (NaN when too few were found).
        cushion_share: (4,) float64 share of each cushion's edge samples inside its
            band (NaN: cushion not checked), ``CUSHIONS`` order.
        cloth_pockets: Number of pockets whose opening looks like cloth.
        line_found: Number of baulk line and D samples where a chalk line was found.
    """

    ok: bool
    reason: str
    line_offset: float
    cushion_share: np.ndarray
    cloth_pockets: int
    line_found: int = 0


def _profiles(
    gray: np.ndarray, base: np.ndarray, normal: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    """(N, M) float32 bilinear samples of ``gray`` at ``base + offsets[j] * normal``.

    ``base`` (N, 2) px, ``normal`` (N, 2) unit, ``offsets`` (M,) or (N, M) px.
    """
    off = np.broadcast_to(offsets, (len(base), offsets.shape[-1]))
    pts = base[:, None, :] + off[..., None] * normal[:, None, :]
    return cv2.remap(
        gray,
        pts[..., 0].astype(np.float32),
        pts[..., 1].astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _across(
    cal: Calibration, pts: np.ndarray, inward: np.ndarray, z_mm: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Image points, unit normals (inwards) and px-per-mm across a table curve.

    Args:
        cal: The calibration.
        pts: (N, 2) table mm on the curve (plane z = ``z_mm``).
        inward: (N, 2) unit table directions across the curve, inwards.
        z_mm: Height of the curve.

    Returns:
        ((N, 2) px, (N, 2) unit image normals, (N,) px per mm across the curve).
    """
    along = np.column_stack([-inward[:, 1], inward[:, 0]])
    a = cal.table_to_image(pts, z_mm=z_mm)
    tangent = cal.table_to_image(pts + along, z_mm=z_mm) - a
    inw = cal.table_to_image(pts + inward, z_mm=z_mm) - a
    n = np.column_stack([-tangent[:, 1], tangent[:, 0]])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
    n *= np.where(np.sum(n * inw, axis=1) < 0, -1.0, 1.0)[:, None]
    return a, n, np.sum(n * inw, axis=1)


def _in_frame(px: np.ndarray, size: tuple[int, int], margin: float) -> np.ndarray:
    """(N,) bool: finite pixels at least ``margin`` inside the frame."""
    w, h = size
    with np.errstate(invalid="ignore"):
        return (
            np.all(np.isfinite(px), axis=1)
            & (px[:, 0] > margin)
            & (px[:, 0] < w - 1 - margin)
            & (px[:, 1] > margin)
            & (px[:, 1] < h - 1 - margin)
        )


def _line_offsets(
    gray: np.ndarray, cal: Calibration
) -> tuple[np.ndarray, np.ndarray]:
    """Distances of the found chalk ridges from the baulk line and D, in units of
    the tolerance (``LINE_TOL_MM``, or ``LINE_TOL_PX`` where that is more), and
    whether each found sample is on the D's arc: two (K,) arrays."""
    spec = cal.spec
    hw, bx, r = spec.half_width, spec.baulk_line_x, spec.d_radius_mm
    y = np.concatenate(
        [np.linspace(-hw + 60, -r - 70, 24), np.linspace(r + 70, hw - 60, 24)]
    )
    line = np.column_stack([np.full_like(y, bx), y])
    ang = np.linspace(math.pi / 2 + 0.35, 3 * math.pi / 2 - 0.35, 36)
    arc = np.column_stack([bx + r * np.cos(ang), r * np.sin(ang)])
    pts = np.vstack([line, arc])
    inward = np.vstack(
        [
            np.tile([1.0, 0.0], (len(line), 1)),
            np.column_stack([np.cos(ang), np.sin(ang)]),
        ]
    )
    a, n, scale = _across(cal, pts, inward, 0.0)
    size = (gray.shape[1], gray.shape[0])
    ok = _in_frame(a, size, 6.0) & np.isfinite(scale) & (scale > 0.05)
    on_arc = np.arange(len(pts)) >= len(line)
    if ok.sum() < 8:
        return np.zeros(0), np.zeros(0, bool)
    a, n, scale, on_arc = a[ok], n[ok], scale[ok], on_arc[ok]
    half = np.maximum(3.0, 35.0 * scale)
    lw = np.maximum(1.0, 3.0 * scale)  # chalk line width, px
    steps = np.linspace(-1.0, 1.0, 81)
    offs = steps[None, :] * half[:, None]
    on = _profiles(gray, a, n, offs)
    side = (lw + 1.5)[:, None]
    left = _profiles(gray, a, n, offs - side)
    right = _profiles(gray, a, n, offs + side)
    ridge = on - np.maximum(left, right)
    k = np.argmax(ridge, axis=1)
    peak = ridge[np.arange(len(k)), k]
    noise = np.median(np.abs(np.diff(on, axis=1)), axis=1) + 0.5
    good = peak > np.maximum(3.0, 2.0 * noise)
    off_mm = offs[np.arange(len(k)), k] / scale
    # a few pixels is as close as a far, thin, faint line can be told
    rel = np.abs(off_mm) / np.maximum(LINE_TOL_MM, LINE_TOL_PX / scale)
    return rel[good], on_arc[good]


def _cushion_shares(
    gray: np.ndarray,
    clothlike: np.ndarray,
    bedlike: np.ndarray,
    cal: Calibration,
    nose_mm: float,
) -> np.ndarray:
    """(4,) share of each cushion's edge samples inside its nose-to-bed band.

    ``clothlike`` is (H, W) float32, 1 where a pixel has the cloth's hue;
    ``bedlike`` 1 where it also is about as bright as the lit bed (not a dark,
    cloth-hued score bar over it).
    """
    spec = cal.spec
    hl, hw = spec.half_length, spec.half_width
    size = (gray.shape[1], gray.shape[0])
    shares = np.full(4, np.nan)
    centre = cal.pose.centre_mm[:2] if cal.pose is not None else None
    for g, (axis, sign) in enumerate(((0, -1.0), (1, -1.0), (0, 1.0), (1, 1.0))):
        half = hl if axis == 0 else hw
        along_half = hw if axis == 0 else hl
        t = np.linspace(-along_half + 130.0, along_half - 130.0, 48)
        if axis == 1:
            t = t[np.abs(t) > 130.0]
        pts = np.zeros((len(t), 2))
        pts[:, axis] = sign * half
        pts[:, 1 - axis] = t
        inward = np.zeros_like(pts)
        inward[:, axis] = -sign
        z_nose = nose_mm if cal.pose is not None else 0.0
        a, n, scale = _across(cal, pts, inward, z_nose)
        bed = cal.table_to_image(pts, z_mm=0.0)
        ok = _in_frame(a, size, 6.0) & _in_frame(bed, size, 6.0) & (scale > 0.02)
        if ok.sum() < 8:
            continue
        a, n, scale, bed, half_t = a[ok], n[ok], scale[ok], bed[ok], t[ok] > 0
        o_bed = np.sum((bed - a) * n, axis=1)
        face = centre is not None and float(inward[0] @ (centre - pts[0])) > 0
        if not face:
            o_bed = np.zeros_like(o_bed)
        lo = np.minimum(0.0, o_bed)
        hi = np.maximum(0.0, o_bed)
        slack = np.maximum(BAND_TOL_PX, BAND_TOL_MM * scale)
        start = lo - np.maximum(1.5, 15.0 * scale)  # short of the rail
        stop = hi + np.maximum(8.0, 60.0 * scale)  # wide: a missed edge shows
        steps = np.linspace(0.0, 1.0, 97)
        offs = start[:, None] + steps[None, :] * (stop - start)[:, None]
        # brightness change per pixel across the cushion
        grad = 0.5 * np.abs(
            _profiles(gray, a, n, offs + 1.0) - _profiles(gray, a, n, offs - 1.0)
        )
        # every table edge here has cloth on its inner side (the cushion top, the
        # face or the bed), a score bar's or a player's edge over the bed need not
        inner = np.mean(
            [_profiles(clothlike, a, n, offs + d) for d in (1.5, 2.5, 3.5)], axis=0
        )
        grad *= inner > 0.5
        k = np.argmax(grad, axis=1)
        peak = grad[np.arange(len(k)), k]
        pos = offs[np.arange(len(k)), k]
        # an edge well above the cloth's own texture, a peak, not a slope
        texture = np.median(grad, axis=1)
        strong = (peak > np.maximum(2.5, 4.0 * texture)) & (k > 1)
        strong &= k < len(steps) - 2
        # only where the bed next to the cushion is in view (no score bar, player)
        u = np.linspace(0.0, 1.0, 6)[None, :]
        beyond = (hi + slack)[:, None] + np.maximum(6.0, 20.0 * scale)[:, None] * u
        strong &= np.mean(_profiles(bedlike, a, n, beyond), axis=1) > 0.6
        # a cue or a ball over the cushion: its edges are not the table's
        span = np.linspace(0.0, 1.0, 21)[None, :] * (hi + slack - start)[:, None]
        under = _profiles(clothlike, a, n, start[:, None] + span)
        strong &= np.min(under, axis=1) > 0.5
        if strong.sum() < 8:
            continue  # hidden (a score bar, a player): not checked
        # the cushion top just outside the nose is cloth-covered (not the rail):
        # a calibration that takes the rail's edge for the nose fails here
        u = np.linspace(0.0, 1.0, 5)[None, :]
        top_w = np.maximum(3.0, 25.0 * scale)[:, None]
        top_offs = -1.5 - (top_w - 1.5) * u
        top_green = np.mean(_profiles(clothlike, a, n, top_offs), axis=1)
        top_ok = top_green > 0.5
        # on a side cushion, an edge at the nose with no cloth outside it but cloth
        # inside: the rail's edge taken for the nose (counted, as a miss);
        # otherwise a top that is not cloth is hidden (a score bar over an end
        # cushion) and not counted
        in_offs = 1.5 + (np.maximum(3.0, 15.0 * scale)[:, None] - 1.5) * u
        in_green = np.mean(_profiles(clothlike, a, n, in_offs), axis=1) > 0.5
        rail = ~top_ok & in_green & (np.abs(pos) <= slack) & (axis == 1)
        strong &= top_ok | rail
        if strong.sum() < 8:
            continue
        if not face:
            # the face is hidden: the edge is the nose
            inside = (np.abs(pos) <= slack) & top_ok
            shares[g] = _halves_share(inside, strong, half_t)
            continue
        # the nose (offset 0) or the bed edge under it (offset o_bed), not between
        at_nose = np.abs(pos) <= slack
        at_bed = np.abs(pos - o_bed) <= slack
        # seen from above (steeper than 45 degrees) the nose hides an undercut face;
        # a grazing view shows the face as a wide dark band
        assert cal.pose is not None and centre is not None
        height = float(cal.pose.centre_mm[2]) - nose_mm
        steep = height > abs(float(centre[axis]) - sign * half)
        wide = (o_bed > 4.0) & (not steep)
        # a narrow band (a steep view): the nose, its dark line or the bed edge
        loose = np.maximum(3.0, 1.5 * BAND_TOL_MM * scale)
        inside = ~wide & (at_nose | ((pos >= lo - loose) & (pos <= hi + loose)))
        if wide.sum() >= 8:
            # a visible face is a dark band between the cushion top and the cloth
            u = np.linspace(0.0, 1.0, 7)[None, :]
            reach = np.maximum(1.0, np.minimum(0.25 * o_bed, 30.0 * scale))[:, None]
            band = _profiles(gray, a, n, o_bed[:, None] * (0.2 + 0.6 * u))
            top = _profiles(gray, a, n, -0.7 - (reach - 0.7) * u)
            cloth = _profiles(gray, a, n, o_bed[:, None] * (1.1 + 0.4 * u))
            green = _profiles(clothlike, a, n, o_bed[:, None] * (0.2 + 0.6 * u))
            dark = np.median(band, axis=1) + 6.0 < np.minimum(
                np.median(top, axis=1), np.median(cloth, axis=1)
            )
            dark &= np.mean(green, axis=1) > 0.5  # cloth-covered, not wood
            inside |= wide & (at_nose | at_bed) & dark
        shares[g] = _halves_share(inside & top_ok, strong, half_t)
    return shares


def _halves_share(inside: np.ndarray, strong: np.ndarray, half: np.ndarray) -> float:
    """Share of ``strong`` samples ``inside``, the worse of a cushion's two halves
    (a camera can fit one end of a cushion and miss the other)."""
    shares = [
        float(inside[strong & m].mean())
        for m in (half, ~half)
        if (strong & m).sum() >= 5
    ]
    return min(shares) if shares else float(inside[strong].mean())


def _cloth_colour(hsv: np.ndarray, cal: Calibration) -> np.ndarray | None:
    """(3,) float64 median HSV of the bed where the calibration puts it."""
    spec = cal.spec
    size = (hsv.shape[1], hsv.shape[0])
    bed = np.array(
        [(x, y) for x in np.linspace(-0.8, 0.8, 9) for y in np.linspace(-0.8, 0.8, 5)]
    ) * [spec.half_length, spec.half_width]
    bed_px = cal.table_to_image(bed)
    okb = _in_frame(bed_px, size, 2.0)
    if okb.sum() < 5:
        return None
    q = np.round(bed_px[okb]).astype(int)
    return np.median(hsv[q[:, 1], q[:, 0]].astype(np.float64), axis=0)


def clothlike_map(hsv: np.ndarray, cloth: np.ndarray) -> np.ndarray:
    """(H, W) float32: 1 where the HSV image ``hsv`` has the cloth's hue, else 0.

    ``cloth`` is the cloth's (3,) HSV (OpenCV ranges); lit or in shadow, the cloth,
    the cushion tops and the cushion faces all have its hue.
    """
    dh = np.abs(np.arange(256) - round(float(cloth[0])))
    near = (np.minimum(dh, 180 - dh) < 12).astype(np.float32)  # by hue, a table
    hue, sat, _ = cv2.split(hsv)
    like = cv2.LUT(hue, near)
    like[sat <= 0.3 * cloth[1]] = 0.0
    return like


def lit_map(hsv: np.ndarray, cloth: np.ndarray) -> np.ndarray:
    """(H, W) float32: 1 where the HSV image ``hsv`` is at least ``LIT_SHARE`` of
    the cloth's (3,) HSV ``cloth`` brightness (a lit bed or cushion top), else 0."""
    return (hsv[..., 2] > LIT_SHARE * cloth[2]).astype(np.float32)


def _cloth_pockets(
    hsv: np.ndarray, cal: Calibration, cloth: np.ndarray, nose_mm: float
) -> tuple[int, int]:
    """(pockets whose opening looks like cloth, pockets in view)."""
    spec = cal.spec
    size = (hsv.shape[1], hsv.shape[0])
    looks, seen = 0, 0
    rim_mm = nose_mm if cal.pose is not None else 0.0
    for (x, y) in spec.pockets.values():
        sx = math.copysign(1.0, x) if abs(x) > 1 else 0.0
        sy = math.copysign(1.0, y)
        d = 30.0 if sx else 40.0
        centre = np.array([x + sx * d / math.sqrt(2), y + sy * d / (math.sqrt(2) if sx
                                                                   else 1.0)])
        disc = centre + 12.0 * np.array(
            [(math.cos(a), math.sin(a)) for a in np.linspace(0, 2 * math.pi, 8,
                                                              endpoint=False)]
            + [(0.0, 0.0)]
        )
        if cal.pose is not None:
            # only pockets looked into from above 45 degrees: at a grazing angle the
            # view passes over the hole onto the cloth of the pocket's shelf
            rel = cal.pose.centre_mm - np.array([*centre, rim_mm])
            if rel[2] < np.hypot(rel[0], rel[1]):
                continue
        px = cal.table_to_image(disc, z_mm=rim_mm)
        ok = _in_frame(px, size, 2.0)
        if ok.sum() < 6:
            continue
        seen += 1
        q = np.round(px[ok]).astype(int)
        val = hsv[q[:, 1], q[:, 0]].astype(np.float64)
        dh = np.abs(val[:, 0] - cloth[0])
        dh = np.minimum(dh, 180 - dh)
        like = (dh < 12) & (val[:, 1] > 0.6 * cloth[1]) & (val[:, 2] > 0.5 * cloth[2])
        if like.mean() > 0.7:
            looks += 1
    return looks, seen


def verify(
    image: np.ndarray,
    cal: Calibration,
    nose_mm: float = CUSHION_NOSE_HEIGHT_MM,
    bars: Sequence[ScoreBar] | None = None,
) -> Verdict:
    """Check ``cal`` against the BGR ``image`` it was made from; see the module.

    ``bars`` are the score bars in ``image`` (``calibration.bars.find_bars``), found
    here when None.
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    cloth = _cloth_colour(hsv, cal)
    if cloth is None:
        return Verdict(False, "the table's bed is out of the frame", math.nan,
                       np.full(4, np.nan), 0)
    if bars is None:
        bars = find_bars(image)
    clothlike = hide_bars(clothlike_map(hsv, cloth), bars, float(cloth[2]))
    bedlike = clothlike * lit_map(hsv, cloth)
    offsets, on_arc = _line_offsets(gray, cal)
    line = float(np.median(offsets)) if len(offsets) >= 10 else math.nan
    arc = float(np.median(offsets[on_arc])) if on_arc.sum() >= 8 else 0.0
    shares = _cushion_shares(gray, clothlike, bedlike, cal, nose_mm)
    cloth_pockets, seen = _cloth_pockets(hsv, cal, cloth, nose_mm)
    reason = ""
    if len(offsets) < 10:
        reason = "the baulk line and the D are not where the calibration puts them"
    elif arc > 1.0:
        reason = (
            f"the D is {arc:.1f} tolerances from where the calibration puts it"
        )
    elif line > 1.0:
        reason = (
            f"the baulk line and the D are {line:.1f} tolerances from where the "
            "calibration puts them"
        )
    else:
        checked = np.isfinite(shares)
        if checked.sum() < 3:
            reason = (
                "fewer than three cushions show their nose (cloth-covered top, "
                "bed beyond) where the calibration puts it"
            )
        else:
            worst = int(np.nanargmin(shares))
            if shares[worst] < 0.5:
                reason = (
                    f"the {CUSHIONS[worst]} edge is not where the calibration puts "
                    f"it ({shares[worst]:.0%} of its samples agree)"
                )
            elif seen >= 3 and cloth_pockets > 1:
                reason = f"{cloth_pockets} pockets fall on the cloth"
    return Verdict(not reason, reason, line, shares, cloth_pockets, len(offsets))


def check(
    image: np.ndarray, cal: Calibration, nose_mm: float = CUSHION_NOSE_HEIGHT_MM
) -> Verdict:
    """``verify``, raising when it fails.

    Raises:
        CalibrationError: "self-check: " and the reason.
    """
    verdict = verify(image, cal, nose_mm)
    if not verdict.ok:
        raise CalibrationError(f"self-check: {verdict.reason}")
    return verdict
