"""What happened in a stroke, read from the balls' trajectories.

From a ``StrokeTracks`` (see ``vision.strokes``): the first contact (the ball or two
balls the cue ball struck first), pots with their pocket, balls off the table,
cushion contacts after the first contact, rest positions and touching balls. Each
event has a confidence; where the footage cannot tell (the cue ball hidden at the
contact, a camera cut during the stroke) the event says ``unknown`` and gives the
best guess it has.

Geometry: trajectories are sampled once a frame, so contacts are found on the
segments between samples and on the cue ball's straight-line extrapolation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from calibration.table import OFFICIAL, Pocket, TableSpec
from vision.strokes import (
    HAND_MM,
    WHITE,
    SegmenterConfig,
    StrokeTracks,
    last_step,
    line_fit,
    placed_by_hand,
)

HIDDEN_GAP_ROWS = 3
"""Rows the cue ball may go unseen across a contact for its chord between the
sightings either side to say which ball it reached first (less surely: 0.8);
longer, the contact was hidden (``Unknown.HIDDEN_AT_CONTACT``)."""

CLOSE_CALL = 0.6
"""Confidence of a first contact that came within ``EventConfig.close_call_mm``
of the cue ball's way before another: the order is told from centres good to a
millimetre or so, and the overlay shows the referee it was close."""

APPROACH_SIGHTINGS = 6
"""Most sightings of the cue ball its approach to a contact is fitted to
(``EventDetector._approach_first``); four at least."""

DEPART_ROWS = 8
"""Rows after a contact over which a struck ball's sightings say which way it
set off (``EventDetector._departure_first``); four sightings at least."""

THROW_DEG = 3.0
"""Most the throw of a contact (friction between the balls turning the struck
ball off the line of centres, towards the cue ball's going) can differ between
two balls struck at once; it moves where the cue ball's centre is read to have
been at each contact by up to ``2R sin(THROW_DEG)`` along its way."""

UNSEEN_LEAVING_ROWS = 6
"""Rows after a contact within which a struck ball unseen as it left must be
seen again, on two rows running, for when it left to be read from them
(``EventDetector._left_unseen_at``); farther on, how it slowed on the way
unseen would outweigh the order of two contacts."""

APPROACH_SHARE = 1.5
"""How many times the sum of their errors along the way (each at the fitted
approach's uncertainty once) two contacts on it must lie apart for one to be
first (``EventDetector._approach_first``)."""


class EventKind(StrEnum):
    """Kinds of stroke event."""

    STRIKE = "strike"
    FIRST_CONTACT = "first_contact"
    POT = "pot"
    OFF_TABLE = "off_table"
    CUSHION = "cushion"
    REST = "rest"
    TOUCHING = "touching"
    LOST = "lost"


class Unknown(StrEnum):
    """Why an event could not be decided from the footage."""

    HIDDEN_AT_CONTACT = "cue ball hidden at the contact"
    AMBIGUOUS_CONTACT = "two balls could have been struck first"
    CAMERA_CUT = "camera cut during the stroke"
    POCKET_UNSEEN = "ball vanished out of sight of a pocket"
    NO_CUE_BALL = "no cue ball found"
    UNSEEN_BALL = "the cue ball turned off a ball that was not seen"
    BALL_LOST = "ball lost from sight away from the pockets"
    ONLY_GRAZED = "balls moved, yet the cue ball was only seen to graze one"
    GONE_BEFORE_CONTACT = "a ball went from sight before the cue ball struck any"


@dataclass(frozen=True)
class Event:
    """One event of a stroke.

    Attributes:
        kind: What happened.
        frame: Frame index (the first frame at or after it).
        balls: Ball names concerned.
        pocket: Pocket name for pots.
        cushion: Cushion name (``baulk``, ``top``, ``left``, ``right``).
        confidence: 0-1.
        unknown: Why the footage cannot tell (then the event is a best guess).
    """

    kind: EventKind
    frame: int
    balls: tuple[str, ...]
    pocket: str | None = None
    cushion: str | None = None
    confidence: float = 1.0
    unknown: Unknown | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``strokes.json``."""
        out: dict[str, Any] = {"kind": str(self.kind), "frame": self.frame,
                               "balls": list(self.balls),
                               "confidence": round(self.confidence, 3)}
        if self.pocket:
            out["pocket"] = self.pocket
        if self.cushion:
            out["cushion"] = self.cushion
        if self.unknown:
            out["unknown"] = str(self.unknown)
        return out


@dataclass(frozen=True)
class StrokeEvents:
    """Everything found in one stroke.

    Attributes:
        stroke: Stroke index.
        start_frame: Frame of the strike.
        end_frame: First frame with all balls at rest.
        events: Events in time order.
        first_contact: Names struck first (``()`` none struck).
        first_contact_frame: Frame of the first contact, or None.
        potted: ``(ball, pocket or None)`` in order.
        off_table: Balls off the table.
        cushion_after_contact: Balls that touched a cushion after the first contact.
        positions: ``(name, (x, y))`` rest positions, table mm.
        touching: Pairs of balls touching at rest.
        unknown: Reasons some events are best guesses.
        interrupted: The view was lost during the stroke.
        held_in: Track ids of balls taken as knocked into a pocket unseen
            (``EventDetector._knocked_in``), whose tracks the tracker still
            holds where they stood.
    """

    stroke: int
    start_frame: int
    end_frame: int
    events: tuple[Event, ...]
    first_contact: tuple[str, ...]
    first_contact_frame: int | None
    potted: tuple[tuple[str, str | None], ...]
    off_table: tuple[str, ...]
    cushion_after_contact: tuple[str, ...]
    positions: tuple[tuple[str, tuple[float, float]], ...]
    touching: tuple[tuple[str, str], ...]
    unknown: tuple[Unknown, ...] = ()
    interrupted: bool = False
    held_in: tuple[int, ...] = ()

    def shot_record(self) -> dict[str, Any]:
        """The contract ``shot`` record of this stroke."""
        potted: list[Any] = [
            {"ball": b, "pocket": p} if p else b for b, p in self.potted
        ]
        pos: dict[str, Any] = {}
        for name, (x, y) in self.positions:
            pt = [round(x, 1), round(y, 1)]
            if name == "red":
                pos.setdefault("red", []).append(pt)
            else:
                pos[name] = pt
        rec: dict[str, Any] = {
            "type": "shot",
            "first_contact": list(self.first_contact),
            "potted": potted,
            "off_table": list(self.off_table),
            "cushion_after_contact": list(self.cushion_after_contact),
        }
        if pos and not self.interrupted:
            rec["positions"] = pos
        return rec

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``strokes.json``."""
        return {
            "index": self.stroke,
            "start_frame": self.start_frame,
            "end_frame": self.end_frame,
            "first_contact": list(self.first_contact),
            "first_contact_frame": self.first_contact_frame,
            "potted": [{"ball": b, "pocket": p} for b, p in self.potted],
            "off_table": list(self.off_table),
            "cushion_after_contact": list(self.cushion_after_contact),
            "touching": [list(p) for p in self.touching],
            "unknown": [str(u) for u in self.unknown],
            "interrupted": self.interrupted,
            "events": [e.to_json() for e in self.events],
            "shot": self.shot_record(),
        }


@dataclass(frozen=True)
class EventConfig:
    """Tolerances of event detection (mm).

    Attributes:
        contact_tol_mm: Slack on the 2R contact distance.
        strike_tol_mm: Slack on the 2R contact distance along the cue ball's
            way from its place to its first sighting away from it, and on from
            there when that came a frame after the sighting before (``_hits``):
            blurred as it sets off, often half hidden by the cue, its first
            sightings lie off its way, and a chord from its place cuts the
            corner of a turn (seed 3560's was struck thinly into a red 59 mm
            from touching it; its first sighting, 20 mm back along its way and
            6 mm aside, was left out of its path, and the chord from its place
            to the next passed 6.4 mm wide of the red; a miss was called).
        moved_mm: Displacement from rest that shows a ball was set moving.
        pocket_mm: A ball vanishing within this of a pocket (extrapolated) is potted.
        cushion_tol_mm: Slack on the R distance to a cushion nose at a bounce.
        touch_mm: Gap under which two resting balls count as touching.
        same_time_mm: Two contacts this close along the cue ball's path are
            simultaneous. Contacts 2.6 ms apart (2.9 mm of the cue ball's way at
            1.1 m/s: seed 489's red then blue) are one after the other, and
            the centres are good to a millimetre or better.
        close_call_mm: The first of two contacts nearer than this along the
            cue ball's path is called less surely (``CLOSE_CALL``).
        close_call_rows: Two balls struck within a row of each other whose
            ways, followed back, left their places nearer in time than this
            (rows) are a close call too (``_left_at``: read to a fifth of a
            row or so; seed 1317's red and pink, 0.08 rows apart, read 0.27).
        left_apart_rows: Of balls of two kinds the cue ball's way reached at
            once, one that left its place this much sooner (rows) than the
            others was struck first (``_left_first``); a close call.
        max_step_mm: Farthest a ball can roll in a frame; a cue-ball sighting
            farther from the last is a misread.
        spurious_mm: A ball this far from its rest place before the cue ball
            reached it had already left (or was misread); one that ends this far
            from it left it for good.
        nudged_mm: A ball the cue ball's way only grazed that ends this far
            from its place (less than ``spurious_mm``), along the line of
            centres, was nudged: struck (``_nudged``).
        lost_rows: The cue ball unseen for this many rows before the end of the
            stroke was lost from sight.
        gap_rows: The cue ball unseen for more rows than this may have struck a
            ball unseen: the first to set off then is taken (one unseen frame
            is enough: struck from beside a ball, the cue ball reaches it in
            the frame it is blurred out of sight, and the chord between its
            sightings cuts the corner of its turn).
        weak_rows: A cue ball turning at a ball seen still is taken as a contact
            only if no ball is seen to set off within this many rows after,
            and only if the turn lasts over ``weak_span`` sightings either side.
        weak_span: See ``weak_rows``.
        early_rows: An object ball gone this many rows or more before the first
            contact seen was not potted nor off the table (``_before_contact``).
        path_lookback: Sightings of the cue ball looked back over to link the
            next into its path (bounds the work per stroke).
        detour_share: A ball not seen to set off while the cue ball was unseen
            is taken as struck only if going by it lengthens the cue ball's way
            by at most this share (plus a radius).
        knock_deg: A struck ball never seen again went into a pocket within
            this angle of the line of centres at the contact (``_knocked_in``),
            if the stroke went on ``lost_rows`` rows after the contact, or
            ``jaws_rows`` for a ball in that pocket's mouth.
        jaws_rows: See ``knock_deg``.
        along_deg: A ball seen last after a while unseen, this near the line
            it was rolling on before, went on at its mean speed over the gap
            (``_on_along``).
        throw_deg: A struck ball leaves up to this far off the line of centres,
            turned towards the cue ball's way (the throw of a cut: ball on
            ball friction, 0.05 on the simulator's balls, turns it 2-3
            degrees).
        off_speed_mm: A ball gone from sight by a cushion left the table only
            if it ran at the cushion at least this fast (mm a frame); slower
            (along a cushion under a score bar) it was hidden.
        put_back_mm: A ball unseen for more than ``lost_rows`` rows and seen
            again this far from where it went was put back by hand (the cue
            ball in the D, a colour on its spot): it left where it went (the
            segmenter's, ``SegmenterConfig.put_back_mm``, by default).
        hand_mm: How far from the D a cue ball seen again counts as brought
            back to it (seen in the hand that places it).
        beside_mm: A ball this near touching the cue ball at the strike (gap
            between them, mm) can be struck in the frame of the strike, before
            the cue ball is seen to move (``_struck_from_beside``): seed 555's
            red, 74 mm off, was struck 29 ms after the strike at 1.8 m/s, and
            the cue ball, stopped dead by it and screwing back, was held at
            its place by the tracker until it rolled back past it.
        one_ball_mm: Two balls struck at once whose places are nearer than this
            (touching balls are two radii apart, 52.5 mm) are one ball with two
            tracks (``_distinct``).
        still_sightings: A ball hidden as the cue ball reached it and then seen
            this many times in a row at its place was not struck then
            (``_left_for_good``).
        kink_deg: A cue ball seen on every row either side of a turn, straight
            on each side, turned by a ball if its way bends by this much
            there (``_kinked``): a thin contact turns it less than
            ``_deflected`` asks (seed 926's break: 13 degrees off a red of the
            pack, which passed the blow on and was held still).
        kink_step_mm: ``_kinked`` reads only a cue ball running at least this
            fast (mm a row): slower, the few millimetres of noise of a far
            ball in a broadcast view are degrees.
        unsure_kind: A cue ball sighting this unsure of its kind (identity
            confidence) beside another ball seen in the same frame, within
            ``misread_mm``, is not the cue ball (``_misread``).
        misread_mm: See ``unsure_kind``.
        roll_decel_mm_row2: Deceleration of a ball rolling on the cloth, mm a
            row squared (``SegmenterConfig.roll_decel_mm_s2`` at its fps, by
            default): how far a ball last seen rolling slowly rolls on
            (``_rolls_into_fall``).
        alone_mm: A ball this far or more wide of touching every other ball
            cannot pass a blow on (``_stayed_alone``).
        rest_rows: The rows that end a stroke, every ball still (the
            segmenter's rest window, ``SegmenterConfig.rest_frames``): a ball
            seen in them was seen at the stroke's end (``_stayed_alone``).
        knock_run_mm: A ball the cue ball turned off would have rolled this
            far or more: seen not to move, it was not struck (``_stayed_alone``).
        glance_deg: ``_stayed_alone`` reads only a cue ball turned by less than
            this: one turned more, or stopped, surely struck something there.
    """

    contact_tol_mm: float = 6.0
    strike_tol_mm: float = 12.0
    moved_mm: float = 2.0
    pocket_mm: float = 160.0
    cushion_tol_mm: float = 18.0
    touch_mm: float = 1.5
    same_time_mm: float = 1.0
    close_call_mm: float = 3.0
    close_call_rows: float = 0.5
    left_apart_rows: float = 0.25
    max_step_mm: float = 320.0
    spurious_mm: float = 15.0
    nudged_mm: float = 3.0
    lost_rows: int = 15
    gap_rows: int = 1
    weak_rows: int = 3
    weak_span: int = 3
    early_rows: int = 3
    path_lookback: int = 90
    detour_share: float = 0.1
    knock_deg: float = 30.0
    jaws_rows: int = 5
    along_deg: float = 10.0
    throw_deg: float = 3.0
    off_speed_mm: float = 20.0
    over_rows: float = 2.5
    put_back_mm: float = SegmenterConfig.put_back_mm
    hand_mm: float = HAND_MM
    beside_mm: float = 80.0
    one_ball_mm: float = 42.0
    still_sightings: int = 5
    kink_deg: float = 5.0
    kink_step_mm: float = 50.0
    unsure_kind: float = 0.3
    misread_mm: float = 72.5
    roll_decel_mm_row2: float = (SegmenterConfig.roll_decel_mm_s2
                                 / SegmenterConfig.fps**2)
    alone_mm: float = 10.0
    rest_rows: int = SegmenterConfig().rest_frames
    knock_run_mm: float = 30.0
    glance_deg: float = 45.0


Gone = tuple[int, int, EventKind, str | None, float, Unknown | None]
"""A ball gone in a stroke: (column, row, kind of event, pocket, confidence,
unknown)."""

STEADY_STEPS = 3
"""Steps over which the speed of a ball held hidden to a stroke's end is read
at its last sightings (``_vanished``): one reading a few mm off, far in a
broadcast view, is no speed."""

ROLL_ROWS = 3
"""Rows over which a ball is seen to roll (``EventDetector._rolling_rows``):
``moved_mm`` a row or more over them, more than one reading's noise."""


def _put_back(xy: np.ndarray, seen: np.ndarray, s0: int, kind: str,
              spec: TableSpec, c: EventConfig, rolling: np.ndarray) -> int | None:
    """Index in ``seen`` (rows a ball was seen in) of its last sighting before
    it was put back by hand: unseen for more than ``lost_rows`` rows from row
    ``s0`` on, then seen ``put_back_mm`` or more away where a hand puts it (the
    cue ball in or near the D, a colour on a spot), or anywhere once it was
    lost running into a pocket's mouth (seed 936's white, potted in the break;
    the referee's glove bringing the black back to its spot was read as the
    white); unseen for less, only if both (seed 3438's white, in-off as the
    stroke's last motion, was in the D 3 frames later: taken to have rolled
    there, the in-off was missed); but not while another ball still rolls
    (``rolling``: (T,) bool, rows in which one does): no hand puts a ball back
    among them (seed 2866's green, rattled out of a baulk corner's jaws
    unseen, came back into sight 490 mm on as the white rolled, and was called
    potted); None if it was not."""
    if len(seen) < 2 or kind == "red":
        return None
    jump = np.linalg.norm(np.diff(xy[seen], axis=0), axis=1)
    gaps = np.flatnonzero((np.diff(seen) > 1) & (jump >= c.put_back_mm)
                          & (seen[:-1] >= s0) & ~rolling[seen[1:]])
    for g in gaps:
        into = _ran_into_pocket(spec, xy[seen[g]], last_step(xy, seen[:g + 1]),
                                c.pocket_mm)
        by_hand = placed_by_hand(spec, kind, xy[seen[g + 1]], c.hand_mm)
        if (into and by_hand) or (seen[g + 1] - seen[g] > c.lost_rows
                                  and (into or by_hand)):
            return int(g)
    return None


def _ran_into_pocket(spec: TableSpec, xy: np.ndarray, step: np.ndarray,
                     reach_mm: float) -> bool:
    """Was a ball at ``xy`` ((2,) mm, table frame), its last step ``step``
    ((2,) mm), within ``reach_mm`` of a pocket and running at it?"""
    return any(math.dist(xy, q) < reach_mm
               and float(step @ np.subtract(q, xy)) > 0.0
               for q in spec.pockets.values())


def _at(rows: np.ndarray, pts: np.ndarray, t: float) -> np.ndarray:
    """(2,) where a path through ``pts`` at ``rows`` is at fractional row ``t``."""
    return np.array([np.interp(t, rows, pts[:, 0]), np.interp(t, rows, pts[:, 1])])


def _distinct(cols: list[int], rest: np.ndarray, apart: float,
              seen: np.ndarray) -> list[int]:
    """``cols`` less any whose rest place is nearer another's than two balls can
    be (``apart``): one ball, two tracks. Of those, the one ``seen`` ((N,) bool
    by column) is kept (seed 431: a red's track left at its old place, 28 mm
    from where it had been nudged, was struck "at once" with it)."""
    out: list[int] = []
    for j in sorted(cols, key=lambda j: not seen[j]):
        if all(np.linalg.norm(rest[j] - rest[k]) > apart for k in out):
            out.append(j)
    return sorted(out, key=cols.index)


def _cross(a: np.ndarray, b: np.ndarray) -> float:
    """z of the cross product of two (2,) vectors."""
    return float(a[0] * b[1] - a[1] * b[0])


def _angle(a: np.ndarray, b: np.ndarray) -> float:
    """Angle between two vectors, degrees."""
    cos = float(a @ b) / max(float(np.linalg.norm(a) * np.linalg.norm(b)), 1e-12)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def _ways(rows: np.ndarray, pts: np.ndarray, i: int, span: int
          ) -> tuple[np.ndarray, np.ndarray]:
    """(2,) mm a row each: a path's way (``rows``, ``pts``) into sighting ``i``
    and out of ``i + 1``, each over ``span`` sightings (fewer at its ends)."""
    a0, b1 = max(0, i - span), min(len(rows) - 1, i + 1 + span)
    return ((pts[i] - pts[a0]) / float(rows[i] - rows[a0]),
            (pts[b1] - pts[i + 1]) / float(rows[b1] - rows[i + 1]))


def _ray_hit(p: np.ndarray, d: np.ndarray, c: np.ndarray, r: float) -> float | None:
    """Smallest u in [0, 1] with |p + u d - c| = r (or already inside at 0)."""
    f = p - c
    a = float(d @ d)
    if a < 1e-12:
        return 0.0 if float(f @ f) <= r * r else None
    b = 2 * float(f @ d)
    cc = float(f @ f) - r * r
    if cc <= 0:
        return 0.0
    disc = b * b - 4 * a * cc
    if disc < 0:
        return None
    u = (-b - math.sqrt(disc)) / (2 * a)
    return u if 0.0 <= u <= 1.0 else None


def _line_in(rows: np.ndarray, pts: np.ndarray, row: int
             ) -> tuple[np.ndarray, np.ndarray] | None:
    """The cue ball's line in to a contact in ``row``, from its last two
    sightings before it: ``((2,) the last, (2,) mm a row)``; None with fewer."""
    before = np.flatnonzero(rows < row)
    if len(before) < 2:
        return None
    a, b = before[-2], before[-1]
    return pts[b], (pts[b] - pts[a]) / float(rows[b] - rows[a])


TURN_REACH_MM = 40.0
"""A ball whose place lies within two radii and this of the cue ball's sharp turn
can explain it (``EventDetector._unexplained_turn``, ``_set_off_at_turn``)."""

FULL_OFFSET = 0.75
"""A ball off the cue ball's approach by more than this share of two radii
cannot have slowed it sharply on its way (``EventDetector._deflected``)."""


class EventDetector:
    """Finds the events of strokes.

    Args:
        spec: Table geometry.
        config: Tolerances.
    """

    def __init__(self, spec: TableSpec = OFFICIAL,
                 config: EventConfig | None = None) -> None:
        self.spec = spec
        self.config = config or EventConfig()
        self._pockets = {str(k): np.array(v) for k, v in spec.pockets.items()}

    def detect(self, tr: StrokeTracks) -> StrokeEvents:
        """All events of one stroke."""
        unknown: list[Unknown] = []
        events: list[Event] = [Event(EventKind.STRIKE, tr.start_frame, (WHITE,),
                                     confidence=tr.start_confidence)]
        w = tr.column(WHITE)
        s0 = tr.row(tr.start_frame)
        if w is None:
            unknown.append(Unknown.NO_CUE_BALL)
        gone = self._vanished(tr, s0)
        # where each ball was last seen, and the cue ball's path from the strike
        seen = None
        if w is not None:
            held = self._held(tr)
            seen = (held, *self._white_path(tr, w, s0, held))
        fc, fc_row, fc_conf, why = self._first_contact(tr, w, s0, seen)
        if why is not None:
            unknown.append(why)
        if tr.interrupted:
            unknown.append(Unknown.CAMERA_CUT)
        if fc_row is not None or why is not None:
            events.append(Event(EventKind.FIRST_CONTACT,
                                int(tr.frames[fc_row]) if fc_row is not None
                                else tr.start_frame,
                                fc, confidence=fc_conf, unknown=why))
        if fc_row is not None and why is None:
            gone = [self._before_contact(tr, g, fc_row) for g in gone]
        knocked = []
        if w is not None and seen is not None and fc_row is not None:
            knocked = self._knocked_in(tr, w, fc, fc_row, {g[0] for g in gone}, *seen)
            gone += knocked
        potted: list[tuple[str, str | None]] = []
        off: list[str] = []
        for j, row, kind, pocket, conf, why_p in gone:
            name = tr.kinds[j]
            if why_p is not None:
                unknown.append(why_p)
            if kind == EventKind.LOST:
                pass  # not a pot: an honest "unknown"
            elif kind == EventKind.POT:
                potted.append((name, pocket))
            else:
                off.append(name)
            events.append(Event(kind, int(tr.frames[row]), (name,), pocket,
                                confidence=conf, unknown=why_p))
        cushions: list[str] = []
        if fc_row is not None:
            for j, row, side in self._cushions(tr, fc_row):
                events.append(Event(EventKind.CUSHION, int(tr.frames[row]),
                                    (tr.kinds[j],), cushion=side, confidence=0.9))
                if tr.kinds[j] not in cushions:
                    cushions.append(tr.kinds[j])
            for j, row, *_ in gone:
                if row >= fc_row and tr.kinds[j] in off and tr.kinds[j] not in cushions:
                    cushions.append(tr.kinds[j])
        # (a ball found potted or off the table has no place at rest, though
        # the tracker may hold it to the end where it was last seen: seed
        # 3115's white, last seen flying over the top cushion and held there,
        # was listed at rest by it in the match log)
        positions, touching = self._rest(
            tr, {g[0] for g in gone if g[2] != EventKind.LOST})
        end_f = tr.end_frame
        events.append(Event(EventKind.REST, end_f, tuple(n for n, _ in positions)))
        for a, b in touching:
            events.append(Event(EventKind.TOUCHING, end_f, (a, b), confidence=0.8))
        events.sort(key=lambda e: e.frame)
        return StrokeEvents(
            tr.index, tr.start_frame, end_f, tuple(events), fc,
            int(tr.frames[fc_row]) if fc_row is not None else None,
            tuple(potted), tuple(off), tuple(cushions), positions, touching,
            tuple(dict.fromkeys(unknown)), tr.interrupted,
            tuple(int(tr.ids[g[0]]) for g in knocked),
        )

    def _before_contact(self, tr: StrokeTracks, gone: Gone, fc_row: int) -> Gone:
        """``gone`` (``_vanished``'s), unless it is an object ball that went
        ``early_rows`` or more before the first contact, seen at ``fc_row``:
        until then only the cue ball moves, so it was no pot nor a ball off
        the table, but a disc that was never a ball, or a ball lost to sight,
        and it is left undecided (seed 908, broadcast: a disc at the far
        top-right pocket, read as a red jumping 20 mm about, vanished 5
        frames before the white struck the yellow, and its "pot" scored)."""
        j, row, kind, _, _, _ = gone
        if tr.kinds[j] == WHITE or kind == EventKind.LOST or (
                row > fc_row - self.config.early_rows):
            return gone
        return j, row, EventKind.LOST, None, 0.3, Unknown.GONE_BEFORE_CONTACT

    # -- first contact --------------------------------------------------------

    def _white_path(self, tr: StrokeTracks, w: int, s0: int, held: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
        """The cue ball's path from the strike: ``(K,)`` rows and ``(K, 2)`` mm
        (``held``: where each ball was last seen, ``_held``).

        Its rest place at the strike, then the longest chain of its sightings
        that a ball can have rolled (no step faster than ``max_step_mm`` a
        frame, nor much faster than the step before): a hand or the cue's tip
        read as the cue ball, away from its real path, is left out. Of chains
        as long, the one whose velocity changes least into each sighting: a
        sighting off the way (seed 1096's white, read once over the pink it
        passed in front of in the image, 60 mm aside) and the one it skips are
        each a chain's, but only the real one goes on as the way came.
        """
        xy = tr.xy_mm[:, w]
        vis = tr.visible[:, w] & ~np.isnan(xy[:, 0]) & ~self._misread(tr, w, held)
        start = tr.before_mm[w]
        if np.isnan(start[0]):
            seen = np.flatnonzero(vis[s0:])
            if not len(seen):
                return np.zeros(0, np.int64), np.zeros((0, 2))
            s0 = s0 + int(seen[0])
            start = xy[s0]
        later = np.flatnonzero(vis[s0 + 1:]) + s0 + 1
        rows = np.concatenate([[s0], later]).astype(np.int64)
        pts = np.vstack([start[None], xy[later]])
        n = len(rows)
        length = np.full(n, -1, np.int64)  # longest chain from the start to k
        prev = np.full(n, -1, np.int64)
        speed = np.zeros(n)  # the chain's speed into k, mm a frame
        vel = np.zeros((n, 2))  # and its velocity, mm a frame (none at the start)
        length[0], speed[0] = 1, self.config.max_step_mm
        for k in range(1, n):
            lo = max(0, k - self.config.path_lookback)
            steps = (pts[k] - pts[lo:k]) / (rows[k] - rows[lo:k])[:, None]
            v = np.linalg.norm(steps, axis=1)
            # no faster than a ball rolls, nor than it came (balls slow down)
            ok = (v <= np.minimum(self.config.max_step_mm,
                                  1.2 * speed[lo:k] + 10.0)) & (length[lo:k] > 0)
            if not ok.any():
                continue
            longest = ok & (length[lo:k] == length[lo:k][ok].max())
            change = np.linalg.norm(steps - vel[lo:k], axis=1)
            change[np.arange(lo, k) == 0] = 0.0
            cand = np.flatnonzero(longest)
            # the smoothest, then the latest
            m = int(cand[np.lexsort((-cand, change[cand]))[0]])
            length[k], prev[k], speed[k] = length[lo + m] + 1, lo + m, v[m]
            vel[k] = steps[m]
        k = int(np.argmax(length[::-1]))
        k = n - 1 - k
        chain = []
        while k >= 0:
            chain.append(k)
            k = int(prev[k])
        chain.reverse()
        return rows[chain], pts[chain]

    def _misread(self, tr: StrokeTracks, w: int, held: np.ndarray) -> np.ndarray:
        """(T,) bool: sightings of the cue ball unsure of its kind (under
        ``unsure_kind``) beside another ball seen in the same frame, or hidden
        where it was last seen (``held``: ``_held``; within ``misread_mm``): a
        blob fitted over that ball, or across both, as the cue ball ran past
        (seed 1152's break: the white, at 7 m/s, was read once over the pink it
        passed 95 mm wide of, and the pink was called struck first; seed
        2182's crept past the yellow 1 mm wide, the two read as one unsure
        white for six frames, the yellow hidden, and those sightings, 3 mm
        astray, turned it off the yellow)."""
        if tr.confidence is None:
            return np.zeros(len(tr.frames), bool)
        unsure = tr.visible[:, w] & (tr.confidence[:, w] < self.config.unsure_kind)
        out = np.zeros(len(tr.frames), bool)
        # (a hidden ball whose place the sighting overlaps had left it: struck
        # away unseen, it explains no blob there; seed 2032's, in a pack)
        clear = 2 * self.spec.ball_radius - self.config.contact_tol_mm
        for r in np.flatnonzero(unsure):
            gaps = np.linalg.norm(held[r] - tr.xy_mm[r, w], axis=1)
            others = ~np.isnan(gaps) & (tr.visible[r] | (gaps >= clear))
            others[w] = False
            out[r] = bool(others.any()) and float(
                gaps[others].min()) <= self.config.misread_mm
        return out

    def _runs_into(self, rows: np.ndarray, pts: np.ndarray, i: int,
                   place: np.ndarray) -> bool:
        """Does the path's segment ``i`` run into a ball at ``place`` (mm),
        within two radii and no slack (``_segment_hits``)?"""
        return bool(self._segment_hits(rows, pts, i, place[None], slack_mm=0.0))

    def _segment_hits(self, rows: np.ndarray, pts: np.ndarray, i: int,
                      anchors: np.ndarray, slack_mm: float | None = None
                      ) -> list[tuple[float, int, bool]]:
        """Contacts of the path's segment ``i`` with balls at ``anchors``, within
        two radii and ``slack_mm`` (``contact_tol_mm`` when None).

        The segment joins two sightings; when the cue ball deflects between them
        the chord cuts the corner, so its approach (the previous segment's
        velocity) is also followed straight on, as far as it can roll in the time.

        Returns:
            ``(t, k, chord)``: fractional row of the contact, index into
            ``anchors``, and whether the chord itself comes within contact (not
            only the approach followed on).
        """
        c = self.config
        reach = 2 * self.spec.ball_radius + (
            c.contact_tol_mm if slack_mm is None else slack_mm)
        pa, pb = pts[i], pts[i + 1]
        span = float(rows[i + 1] - rows[i])
        ray = None
        if i > 0:
            ray = (pts[i] - pts[i - 1]) / float(rows[i] - rows[i - 1]) * span
        out = []
        for k, q in enumerate(anchors):
            if np.isnan(q[0]):
                continue
            best = None
            chord = False
            for d in (pb - pa, ray):
                if d is None:
                    continue
                u = _ray_hit(pa, d, q, reach)
                chord = chord or (u is not None and d is not ray)
                if u is not None and (best is None or u < best):
                    best = u
            if best is not None:
                out.append((float(rows[i]) + span * best, k, chord))
        out.sort()
        return out

    def _hits(self, rows: np.ndarray, pts: np.ndarray, i: int,
              anchors: np.ndarray, away: int) -> list[tuple[float, int, bool]]:
        """``_segment_hits`` of the path's segment ``i``, with the slack
        ``strike_tol_mm`` for balls it runs at (not those already within it
        at its start) on the way into the cue ball's first sighting away from
        its place (index ``away`` into ``pts``), and on out of it when that
        was a frame after the sighting before."""
        hits = self._segment_hits(rows, pts, i, anchors)
        if i != away - 1 and not (
                i == away and i > 0 and rows[i] - rows[i - 1] == 1):
            return hits
        have = {k for _, k, _ in hits}
        wide = self._segment_hits(rows, pts, i, anchors, self.config.strike_tol_mm)
        return sorted(hits + [h for h in wide if h[1] not in have
                              and h[0] > float(rows[i])])

    def _set_off(self, tr: StrokeTracks, held: np.ndarray, j: int, lo: float,
                 hi: float, push: np.ndarray | None = None, window: int = 12
                 ) -> tuple[bool | None, int]:
        """Did ball ``j`` set off from its place between rows ``lo`` and ``hi``?

        True when, within ``window`` rows after ``hi``, it vanishes or is seen
        moving away from where it was last seen at ``lo`` (``held``, see
        ``_held``), in the direction ``push`` when given (from the cue ball to
        it: a struck ball leaves along the line of centres; the later it is
        seen to leave, the closer to that line: a thin contact sets a ball off
        slowly, and a ball at rest is held still until it is surely moving);
        False when it was moving before, is seen at rest well after ``hi``, or
        leaves at once far off the line of centres from a contact at one time
        (``lo`` = ``hi``: set off by another ball);
        None when the footage cannot tell (hidden). A ball seen again after a
        while a little away from where it was held, and staying there, did not
        move.

        Returns:
            The answer and, when True, the first row it was seen away.
        """
        c = self.config
        xy, vis = tr.xy_mm[:, j], tr.visible[:, j]
        t_len = len(tr.frames)
        before = max(0, math.floor(lo) - 2)
        ref = held[min(math.floor(lo), t_len - 1), j]
        if np.isnan(ref[0]) or np.isnan(xy[before, 0]):
            return False, -1  # gone already
        seen_still = False  # seen at its place when it should have left
        wrong_way = False  # seen leaving at once, off the line of centres
        last: tuple[int, float] | None = None  # the previous sighting (row, mm)
        for r in range(before + 1, min(t_len, math.ceil(hi) + window)):
            if np.isnan(xy[r, 0]):
                return True, r  # vanished (potted at once, or off)
            if not vis[r]:
                continue
            d = float(np.linalg.norm(xy[r] - ref))
            if r < lo - 1:
                if c.moved_mm < d < 2 * self.spec.ball_radius:
                    return False, -1  # moving before the cue ball came
                if d <= c.moved_mm:
                    last = (r, d)
                continue  # (farther: another ball, before the track took this)
            if last is not None and d > c.moved_mm and r - last[0] <= 3 and (
                    d > last[1] + 1.0) and self._goes_on(xy, vis, r, ref, d):
                step = xy[r] - ref
                cos = 0.3 if r <= hi + 4 else 0.8
                if push is None or float(step @ push) > cos * float(
                        np.linalg.norm(step) * np.linalg.norm(push)):
                    return True, last[0] if last[1] > c.moved_mm else r
                # left at once, far off the line of centres from a contact
                # seen (at one time): set off by another ball (seed 1153's
                # pink, passed 4 mm wide by the cue ball, left square to that
                # line as the red the cue ball struck next ran into it)
                wrong_way |= lo == hi and r <= hi + 4
            if r >= hi + 2 and d <= c.moved_mm:
                seen_still = True
            last = (r, d)
        return (False if seen_still or wrong_way else None), -1

    @staticmethod
    def _goes_on(xy: np.ndarray, vis: np.ndarray, r: int, ref: np.ndarray,
                 d: float, rows: int = 6) -> bool:
        """Is a ball seen ``d`` mm from ``ref`` on row ``r`` read farther still
        at its next changed reading, if any within ``rows`` rows (the tracker
        repeats a ball's place while it holds it)? A ball set off goes on, if
        only creeping (seed 524's feathered red, 4 mm in 10 frames); a place
        refined by a millimetre or two does not (seed 592's red, its place
        moved 2 mm as the tracker averaged its sightings, was taken to have set
        off 10 frames before the cue ball could reach it)."""
        for k in range(r + 1, min(len(xy), r + 1 + rows)):
            if np.isnan(xy[k, 0]):
                return True
            if vis[k] and float(np.linalg.norm(xy[k] - xy[r])) > 0.1:
                return float(np.linalg.norm(xy[k] - ref)) > d + 0.5
        return not vis[r + 1:r + 1 + rows].any()

    def _unseen_contact(
        self, tr: StrokeTracks, held: np.ndarray, objs: list[int],
        rows: np.ndarray, pts: np.ndarray, i: int,
    ) -> tuple[tuple[str, ...], int | None, float, Unknown | None] | None:
        """The first contact (as ``_contact`` gives it) of a ball struck while
        the cue ball was unseen between sightings ``i`` and ``i + 1``
        (``_struck_unseen``; of several at once, as in a pack, the nearest the
        cue ball came from), or None when no ball was."""
        unseen = self._struck_unseen(tr, held, objs, rows, pts, i)
        if not unseen:
            return None
        r, j = min(unseen, key=lambda h: float(np.linalg.norm(
            held[rows[i], h[1]] - pts[i])))
        return (tr.kinds[j],), int(r), 0.5, Unknown.HIDDEN_AT_CONTACT

    def _struck_unseen(self, tr: StrokeTracks, held: np.ndarray, objs: list[int],
                       rows: np.ndarray, pts: np.ndarray, i: int
                       ) -> list[tuple[float, int]]:
        """Balls struck while the cue ball was unseen between sightings ``i``
        and ``i + 1``: those that set off then, away from where the cue ball
        was, for good, still before, that it can have reached on its way and
        from which it can have come to its next sighting in the time. A ball
        not seen to set off (hidden at once, or struck in a chain in the pack)
        counts when it is seen away later, lies ahead on the cue ball's way,
        little off it (``detour_share``), and beside the straight way only if
        the cue ball came out of the gap on a new line (the break's cue ball,
        a blur through the pack).

        Returns:
            ``(row, column)`` of the earliest to set off (several when at once,
            all seen to; one, when the earliest was not seen to).
        """
        c = self.config
        r2 = 2 * self.spec.ball_radius
        lo, hi = int(rows[i]), int(rows[i + 1])
        out: list[tuple[float, float, float, int]] = []  # row, unsure, detour, col
        turned = True  # did the cue ball come out of the gap on a new line?
        v_out = c.max_step_mm  # and how fast can it have come (mm a row)?
        if i + 2 < len(rows):
            d_in, d_out = pts[i + 1] - pts[i], pts[i + 2] - pts[i + 1]
            turned = float(d_in @ d_out) < 0.97 * float(
                np.linalg.norm(d_in) * np.linalg.norm(d_out))
            if rows[i + 2] - rows[i + 1] <= c.gap_rows:
                # no faster than it left (balls slow down), with slack
                v_out = min(v_out, 1.5 * float(np.linalg.norm(d_out)) / float(
                    rows[i + 2] - rows[i + 1]) + 10.0)
        for j in objs:
            q = held[lo, j]
            if np.isnan(q[0]):
                continue
            moved, r = self._set_off(tr, held, j, lo, hi, q - pts[i], window=3)
            if moved is None:
                r = self._left_unseen(tr, j, q, lo, hi)
                if r > lo and not tr.visible[r - 1, j]:
                    # hidden already: it left unseen, no sooner than the cue
                    # ball can have come to it, nor later than it is seen away
                    # (seed 592's pink, behind the player from before the
                    # strike, was struck first)
                    soonest = lo + math.ceil((float(np.linalg.norm(q - pts[i]))
                                              - r2) / c.max_step_mm)
                    away = np.flatnonzero(tr.visible[r:, j] & (np.linalg.norm(
                        tr.xy_mm[r:, j] - q, axis=1) > c.moved_mm))
                    if len(away) and soonest > r + int(away[0]):
                        continue
                    r = max(r, soonest)
            if moved is False or r <= lo:
                continue
            back = slice(max(0, lo - 10), lo + 1)
            ok = tr.visible[back, j] & ~np.isnan(tr.xy_mm[back, j, 0])
            if len(ok) and np.linalg.norm(tr.xy_mm[back, j][ok] - q, axis=1).max(
                    initial=0.0) > 2 * c.moved_mm:
                continue  # moving before the strike: a hand or the cue, not a ball
            reach = c.max_step_mm * (r - lo) + r2
            if np.linalg.norm(q - pts[i]) > reach:
                continue
            # and from it to where the cue ball was seen next, in the time
            # since the ball was last seen still at its place
            ok = tr.visible[lo:r, j] & (np.linalg.norm(
                tr.xy_mm[lo:r, j] - q, axis=1) <= c.moved_mm)
            still = lo + int(np.flatnonzero(ok)[-1]) if ok.any() else lo
            if float(np.linalg.norm(q - pts[i + 1])) - r2 - c.contact_tol_mm > (
                    v_out * max(hi - still, 1)):
                continue
            final = tr.xy_mm[:, j][~np.isnan(tr.xy_mm[:, j, 0])]
            if len(final) and np.linalg.norm(final[-1] - q) <= c.spurious_mm and (
                    not np.isnan(tr.xy_mm[-1, j, 0])):
                continue  # back where it was: not struck
            # a ball struck in a chain (the pack) leaves off the line from
            # the cue ball, or too fast to be followed: it counts as leaving
            # when it was last seen at its place, if it left for good and lies
            # ahead on the cue ball's way, little off it (the way by the place
            # of the contact, two radii short of the ball's centre)
            way = pts[i + 1] - pts[i]
            detour = float(max(np.linalg.norm(q - pts[i]) - r2, 0.0) + max(
                np.linalg.norm(pts[i + 1] - q) - r2, 0.0) - np.linalg.norm(way))
            if not moved and (float((q - pts[i]) @ way) <= 0 or detour > (
                    c.detour_share * float(np.linalg.norm(way))
                    + self.spec.ball_radius) or (not turned and abs(
                        _cross(way, q - pts[i])) / max(float(np.linalg.norm(
                            way)), 1e-9) > r2 + c.contact_tol_mm
                        and not self._cut_unseen(tr, j, q, r, pts[i],
                                                 pts[i + 1]))):
                continue
            out.append((float(r), 0.0 if moved else 1.0, detour, j))
        if not out:
            return []
        # the earliest to leave; at once, one seen to set off, then the one
        # nearest the way the cue ball went
        first = min(o[:2] for o in out)
        if first[1]:
            return [(r, j) for r, _, _, j in sorted(out)[:1]]
        return [(r, j) for r, sure, _, j in out if (r, sure) == first]

    def _cut_unseen(self, tr: StrokeTracks, j: int, q: np.ndarray, after: int,
                    a: np.ndarray, b: np.ndarray) -> bool:
        """Was ball ``j``, hidden at its place ``q`` and seen running away
        later, cut by the cue ball on its way from ``a`` to ``b``, unseen
        between? Its first three sightings away (after row ``after``, within
        ``lost_rows``) lie on one line from ``q``: the line of centres. The
        cue ball, two radii back along it (the contact), came to it from ``a``
        pushing it on, and went on to ``b`` on the other side of its way in
        from the ball's (a thin cut turns the cue ball a few degrees: the
        chord from ``a`` to ``b`` passes wide of the ball; seed 922's black,
        behind the player with the cue ball, was cut 75 degrees off its way)."""
        c = self.config
        xy = tr.xy_mm[after:after + c.lost_rows, j]
        vis = tr.visible[after:after + c.lost_rows, j] & ~np.isnan(xy[:, 0])
        away = xy[vis & (np.linalg.norm(xy - q, axis=1) > 2 * c.moved_mm)][:3]
        if len(away) < 3:
            return False
        u = (away[0] - q) / float(np.linalg.norm(away[0] - q))
        on = away[2] - away[0]
        if float(on @ u) < 0.995 * float(np.linalg.norm(on)):
            return False  # not one straight line from its place
        hit = q - 2 * self.spec.ball_radius * u
        way_in = hit - a
        return float(way_in @ u) > 0.0 and _cross(way_in, u) * _cross(
            way_in, b - hit) < 0.0

    def _left_for_good(self, tr: StrokeTracks, j: int, q: np.ndarray, after: int,
                       passed: int) -> bool:
        """Ball ``j``, hidden once reached, left its place ``q`` for good: it
        is gone by the end, or was last seen (after row ``after``) away, and
        was not seen still at ``q`` (``still_sightings`` sightings in a row)
        once the cue ball had passed (row ``passed``): seed 691's green, hidden
        by the blurred cue ball passing 1.5 mm wide at 4 m/s and seen at its
        place again for 130 frames, was struck only in a later collision."""
        c = self.config
        later = np.flatnonzero(tr.visible[passed:, j]
                               & ~np.isnan(tr.xy_mm[passed:, j, 0]))[
                                   :c.still_sightings] + passed
        if len(later) == c.still_sightings and bool(np.all(np.linalg.norm(
                tr.xy_mm[later, j] - q, axis=1) <= c.moved_mm)):
            return False
        xy = tr.xy_mm[after:, j]
        if np.isnan(xy[-1, 0]):
            return True
        seen = tr.visible[after:, j] & ~np.isnan(xy[:, 0])
        if not seen.any():
            return False
        return bool(np.linalg.norm(xy[seen][-1] - q) > self.config.spurious_mm)

    def _left_unseen(self, tr: StrokeTracks, j: int, q: np.ndarray, lo: int,
                     hi: int, window: int = 12) -> int:
        """The first row after ``lo`` (by ``hi``) at which ball ``j`` is no
        longer seen at its place ``q``, if it is seen away from it by
        ``window`` rows after ``hi`` (a ball only hidden, behind the player,
        did not leave); -1 otherwise."""
        c = self.config
        xy = tr.xy_mm[lo + 1:hi + window + 1, j]
        seen = tr.visible[lo + 1:hi + window + 1, j] & ~np.isnan(xy[:, 0])
        away = seen & (np.linalg.norm(xy - q, axis=1) > c.moved_mm)
        if not away.any():
            return -1
        for r in range(lo + 1, hi + 1):
            if not tr.visible[r, j] or np.isnan(tr.xy_mm[r, j, 0]) or float(
                    np.linalg.norm(tr.xy_mm[r, j] - q)) > c.moved_mm:
                return r
        return -1

    @staticmethod
    def _held(tr: StrokeTracks) -> np.ndarray:
        """(T, N, 2) where each ball was last seen at each row (its rest place
        before the stroke, or its first place, until seen; NaN once gone)."""
        held = tr.xy_mm.copy()
        last = np.where(np.isnan(tr.before_mm), tr.xy_mm[0], tr.before_mm)
        for r in range(len(tr.frames)):
            seen = tr.visible[r] & ~np.isnan(tr.xy_mm[r, :, 0])
            last[seen] = tr.xy_mm[r, seen]
            gone = np.isnan(tr.xy_mm[r, :, 0])
            held[r] = np.where(gone[:, None], np.nan, last)
        return held

    def _by_cushion(self, p: np.ndarray) -> bool:
        """Is a ball at ``p`` against a cushion (within ``cushion_tol_mm``)?"""
        r = self.spec.ball_radius + self.config.cushion_tol_mm
        return bool(abs(p[0]) > self.spec.half_length - r
                    or abs(p[1]) > self.spec.half_width - r)

    def _ran_at_cushion(self, rows: np.ndarray, pts: np.ndarray, i: int,
                        span: int = 1) -> bool:
        """Did a cushion turn the cue ball between sightings ``i`` and ``i + 1``?
        Its approach to ``i``, run on from it or from the next sighting until
        the one after, crosses a cushion's line, and it comes away from that
        cushion on one of the ``span`` steps out of ``i + 1`` (seed 809's
        white, off the left cushion between two sightings, passed a red at
        rest by it 5 mm wide of touching, and the red was named)."""
        if i == 0 or i + 2 >= len(rows):
            return False
        v = (pts[i] - pts[i - 1]) / float(rows[i] - rows[i - 1])
        outs = [pts[m + 1] - pts[m] for m in range(i + 1, min(i + 1 + span,
                                                              len(rows) - 1))]
        edge = np.array(self.spec.touch_limits)
        for k in (i, i + 1):
            p = pts[k] + v * float(rows[k + 1] - rows[k])
            if any(np.any((np.abs(p) > edge) & (v * out < 0)) for out in outs):
                return True
        return False

    def _deflected(self, rows: np.ndarray, pts: np.ndarray, i: int,
                   span: int = 1, place: np.ndarray | None = None) -> bool:
        """Did the cue ball turn or slow sharply between sightings ``i`` and
        ``i + 1`` (against its approach to ``i``)? Measured over ``span``
        sightings either side (fewer where the path has fewer).

        With ``place`` (mm), a slowing on its way counts only if a ball there
        lay nearly full on the approach (``FULL_OFFSET``): one struck
        off-centre, at an offset ``o`` from the cue ball's line, sends it off
        90 degrees from the line of centres, keeping ``o / 2R`` of its speed;
        only a ball struck near full stops it on its way. Seed 1983's white,
        at 140 mm a frame, passed the yellow 54 mm off its line (2 mm wide of
        touching), unseen beside it, and slowed to half its speed on the same
        way as it struck a red the frame after; the yellow was named."""
        if i == 0 or i + 2 >= len(rows):
            return False
        v_in, v_out = _ways(rows, pts, i, span)
        a, b = float(np.linalg.norm(v_in)), float(np.linalg.norm(v_out))
        if a < 2.0:
            return False
        cos = float(v_in @ v_out) / max(a * b, 1e-9)
        if cos < 0.97:
            return True
        if b >= 0.6 * a:
            return False
        if place is None:
            return True
        off = place - pts[i]
        offset = abs(float(v_in[0] * off[1] - v_in[1] * off[0])) / a
        return offset <= FULL_OFFSET * 2 * self.spec.ball_radius

    def _kinked(self, rows: np.ndarray, pts: np.ndarray, i: int) -> bool:
        """Did the cue ball's way bend sharply between sightings ``i`` and
        ``i + 1``? Seen on each of the two rows before and after, every step
        at least ``kink_step_mm``, its way over the two steps into ``i`` and
        over the two out of ``i + 1`` differ by ``kink_deg`` or more, and each
        side is straight: its two steps turn by under a third of the turn from
        the step into ``i`` to the step out of ``i + 1`` (a swerve bends the
        way evenly; a ball struck on the way bends it at once)."""
        c = self.config
        if i < 2 or i + 3 >= len(rows) or rows[i + 3] - rows[i - 2] != 5:
            return False
        steps = np.diff(pts[i - 2:i + 4], axis=0)
        if np.linalg.norm(steps, axis=1).min() < c.kink_step_mm:
            return False
        bend = _angle(steps[0] + steps[1], steps[3] + steps[4])
        at_gap = _angle(steps[1], steps[3])
        return bend >= c.kink_deg and max(_angle(steps[0], steps[1]),
                                          _angle(steps[3], steps[4])) < at_gap / 3

    def _first_contact(
        self, tr: StrokeTracks, w: int | None, s0: int,
        seen: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
    ) -> tuple[tuple[str, ...], int | None, float, Unknown | None]:
        """(names, row, confidence, reason if unknown); see ``_contact``.

        ``seen`` is ``(_held, *_white_path)``: where each ball was last seen, and
        the cue ball's path from the strike (None without a cue ball).

        A sharp turn of the cue ball in mid-table, at no ball that is tracked,
        before the contact found means it struck a ball not seen: the answer
        is then only a guess, the ball first seen running off from the turn
        (``_off_the_turn``) when there is one.
        """
        if w is None or seen is None:
            return (), None, 0.0, Unknown.NO_CUE_BALL
        held, rows, pts = seen
        names, row, conf, why = self._contact(tr, w, s0, held, rows, pts)
        until = row if row is not None else len(tr.frames)
        turn = None
        if why in (None, Unknown.ONLY_GRAZED):
            turn = self._unexplained_turn(tr, rows, pts, held, until,
                                          seen_there=why is None)
        if turn is not None:
            j = self._off_the_turn(tr, w, int(rows[turn]), pts[turn])
            if j is not None:
                return (tr.kinds[j],), int(rows[turn]), 0.3, Unknown.UNSEEN_BALL
            hit = self._set_off_at_turn(tr, w, s0, rows[turn:turn + 3],
                                        pts[turn:turn + 3])
            if hit is not None:
                return (tr.kinds[hit[1]],), hit[0], 0.5, None
            return names, row, 0.3, Unknown.UNSEEN_BALL
        return names, row, conf, why

    def _off_the_turn(self, tr: StrokeTracks, w: int, r_turn: int,
                      p: np.ndarray) -> int | None:
        """The ball first seen (new, or back from elsewhere) just after the cue
        ball turned at ``p`` on row ``r_turn``, near it and running away from
        it: the ball it struck, not seen at rest."""
        reach = 2 * self.spec.ball_radius
        best: tuple[float, int] | None = None
        for j in range(len(tr.kinds)):
            if j == w:
                continue
            vis = np.flatnonzero(tr.visible[:, j] & ~np.isnan(tr.xy_mm[:, j, 0]))
            after = vis[(vis > r_turn) & (vis <= r_turn + 4)]
            if len(after) == 0:
                continue
            k = int(np.searchsorted(vis, after[0]))
            q = tr.xy_mm[after[0], j]
            d = float(np.linalg.norm(q - p))
            if d > reach + 150.0 * (after[0] - r_turn):
                continue
            if k > 0 and float(np.linalg.norm(tr.xy_mm[vis[k - 1], j] - q)) <= reach:
                continue  # seen there before the turn: not a ball that came out
            if k + 1 >= len(vis) or float(np.linalg.norm(
                    tr.xy_mm[vis[k + 1], j] - p)) <= d:
                continue  # not running away from the turn
            if best is None or d < best[0]:
                best = (d, j)
        return None if best is None else best[1]

    def _set_off_at_turn(self, tr: StrokeTracks, w: int, s0: int,
                         rows: np.ndarray, pts: np.ndarray
                         ) -> tuple[int, int] | None:
        """The ball at rest beside the cue ball's turn that set off from there
        as it turned: the ball it struck, its own and the cue ball's sightings
        in the frame of the contact pulled apart (seed 798: the white at 1.9
        m/s, blurred into the red it struck, was fitted 11 mm short of it and
        the red 19 mm beyond its place, so that the red seemed to have left
        before the white came within reach).

        ``rows``, ``pts``: the cue ball's sightings from the turn
        (``_unexplained_turn``) to its new way. A ball whose place is within
        that function's reach of one of them, seen still there (within
        ``moved_mm``, 3 rows before the turn at the latest), then away from it
        by 3 rows after, running away from the cue ball's nearest sighting.

        Returns:
            ``(row, column)``: the row it was first seen away, and the nearest
            such ball; or None.
        """
        c = self.config
        near = 2 * self.spec.ball_radius + TURN_REACH_MM
        best: tuple[float, int, int] | None = None
        for j in range(len(tr.kinds)):
            place = tr.before_mm[j]
            if j == w or np.isnan(place[0]):
                continue
            gaps = np.linalg.norm(pts - place, axis=1)
            k = int(np.argmin(gaps))
            if gaps[k] > near:
                continue
            xy = tr.xy_mm[:, j]
            vis = tr.visible[:, j] & ~np.isnan(xy[:, 0])
            seen = np.flatnonzero(vis[s0:rows[-1] + 4]) + s0
            d = np.linalg.norm(xy[seen] - place, axis=1)
            still = seen[d <= c.moved_mm]
            if not len(still) or still[-1] < rows[0] - 3:
                continue
            away = seen[(seen > still[-1]) & (d > c.moved_mm)]
            if len(away) < 2 or away[0] > rows[-1] + 1:
                continue
            run = np.linalg.norm(xy[away[:2]] - pts[k], axis=1)
            if run[1] <= run[0] or run[0] <= gaps[k]:
                continue  # not running away from the cue ball
            if best is None or gaps[k] < best[0]:
                best = (float(gaps[k]), int(away[0]), j)
        return None if best is None else best[1:]

    def _unexplained_turn(self, tr: StrokeTracks, rows: np.ndarray,
                          pts: np.ndarray, held: np.ndarray, until: int,
                          seen_there: bool = False) -> int | None:
        """Index in ``rows`` of a sharp turn of the cue ball's path before row
        ``until``, away from the cushions, the pockets' jaws and every tracked
        ball; None. With ``seen_there``, a contact seen at ``until`` explains
        a turn over it: the sightings the turn is read from must all come
        before (seed 1336's white, at 3.5 m/s, was seen 122 mm short of the
        red it struck, then off it; the turn was taken for a ball unseen)."""
        near = 2 * self.spec.ball_radius + TURN_REACH_MM
        for i in range(2, len(rows) - 3):
            if rows[i + 3 if seen_there else i + 1] >= until:
                break
            if rows[i + 3] - rows[i - 2] != 5:
                continue  # two frames' steps either side, all seen
            v_in = pts[i] - pts[i - 2]
            v_out = pts[i + 3] - pts[i + 1]
            a, b = float(np.linalg.norm(v_in)), float(np.linalg.norm(v_out))
            if a < 40.0 or float(v_in @ v_out) > 0.95 * a * max(b, 1e-9):
                continue
            p = pts[i + 1]
            if any(self._by_cushion(q) for q in (p, pts[i])) or any(
                    self._in_mouth(q) for q in pts[i:i + 4]):
                continue  # a cushion or a pocket's jaws turned it
            others = held[rows[i + 1]]
            others = others[[k != WHITE for k in tr.kinds]]
            d = np.linalg.norm(others - p, axis=1)
            if np.nanmin(d, initial=np.inf) > near:
                return i + 1
        return None

    def _stayed_alone(self, tr: StrokeTracks, j: int, w: int, places: np.ndarray,
                      rows: np.ndarray, pts: np.ndarray, i: int) -> bool:
        """Did ball ``j``, which the cue ball seemed to turn off between
        sightings ``i`` and ``i + 1`` (``rows``, ``pts``) and which lay alone
        (``alone_mm`` or more wide of touching any ball but the cue ball ``w``;
        ``places``: (N, 2) mm, every ball's), stay where it lay, last seen there
        (within ``nudged_mm``) in the stroke's last ``rest_rows`` rows, when all
        was still, though a ball turning the cue ball so would have been sent
        ``knock_run_mm`` or more? A ball struck off centre goes off along the
        line of centres at ``sin(turn)`` of the cue ball's speed and rolls on
        at 5/7 of that; one in a pack can pass the blow on and stay. Seed
        2772's white, read 15 mm about its way at the far end of a broadcast
        view, passed a red 10 mm wide and seemed to turn 23 degrees at it; the
        red, never moved, was named. Seed 2828's passed a red 5 mm wide (its
        way read) and struck the black beyond: the red, hidden in the stroke's
        last five rows, was named."""
        c = self.config
        place = places[j]
        gaps = np.linalg.norm(np.delete(places, [j, w], axis=0) - place, axis=1)
        if np.nanmin(gaps, initial=math.inf) < 2 * self.spec.ball_radius + c.alone_mm:
            return False
        seen = np.flatnonzero(tr.visible[:, j] & ~np.isnan(tr.xy_mm[:, j, 0]))
        if not len(seen) or seen[-1] < len(tr.frames) - 1 - c.rest_rows or float(
                np.linalg.norm(tr.xy_mm[seen[-1], j] - place)) > c.nudged_mm:
            return False
        # the turn over one sighting either side, or over ``weak_span``,
        # whichever is less: a cushion met within the longer span turns the
        # cue ball too (seed 2906's white, read 20 mm about its way at the far
        # end of a broadcast view, passed a red by the top cushion 7 mm wide,
        # then came off the side cushion three sightings on: turned 144
        # degrees over the span, it seemed to have struck the red)
        v_in, v_out = min((_ways(rows, pts, i, span) for span in (1, c.weak_span)),
                          key=lambda ways: _angle(*ways))
        turn = _angle(v_in, v_out)
        if turn > c.glance_deg:
            return False
        knock = float(np.linalg.norm(v_in)) * math.sin(math.radians(turn))
        return (5.0 / 7.0 * knock) ** 2 / (2.0 * c.roll_decel_mm_row2) >= c.knock_run_mm

    def _contact(
        self, tr: StrokeTracks, w: int, s0: int, held: np.ndarray,
        rows: np.ndarray, pts: np.ndarray,
    ) -> tuple[tuple[str, ...], int | None, float, Unknown | None]:
        """(names, row, confidence, reason if unknown).

        Read from the cue ball's path (``rows``, ``pts``: ``_white_path``):
        walking along it from the strike, the first ball at rest (``held``:
        ``_held``) that it reaches within the contact distance and that is
        seen to set off then, or off which the cue ball turns. Balls that seem
        to move when the cue ball is nowhere near (a hand or the cue over them)
        cannot have been struck first.
        """
        c = self.config
        objs = [j for j in range(tr.xy_mm.shape[1]) if tr.kinds[j] != WHITE
                and not np.isnan(held[s0, j, 0])]
        if not objs:
            return (), None, 0.5, None
        if len(rows) < 2:
            return self._first_to_leave(tr, s0, objs, held[s0])
        away = next((k for k in range(1, len(pts)) if float(np.linalg.norm(
            pts[k] - pts[0])) > c.moved_mm), len(pts))  # its first sighting away
        found: list[tuple[float, int, int]] = []  # (t, column, segment)
        weak: list[tuple[float, int, int]] = []  # the cue ball turned, no more
        grazed: list[tuple[float, int]] = []  # reached, but neither set off nor turned
        off_way: set[int] = set()  # found only on the approach followed on
        for i in range(len(rows) - 1):
            if found and rows[i] > found[0][0] + 1:
                break
            if weak and rows[i] > weak[0][0] + c.weak_rows:
                break
            anchors = held[rows[i], objs]
            for t, k, chord in self._hits(rows, pts, i, anchors, away):
                if found and t > found[0][0] + 1:
                    break
                j = objs[k]
                if any(j == f[1] for f in found + weak):
                    continue
                gap = rows[i + 1] - rows[i] > 1
                if gap:  # unseen on the way: it must set off by the sighting
                    moved, _ = self._set_off(tr, held, j, rows[i], rows[i + 1],
                                             window=3)
                else:
                    moved, _ = self._set_off(tr, held, j, t, t,
                                             held[rows[i], j] - _at(rows, pts, t))
                kinked = self._kinked(rows, pts, i)
                # a turn read against an approach a cushion turned is no turn
                # (seed 2088: the white, unseen for two frames as the jaws of a
                # corner threw it back, came out past a red at rest 53 mm off;
                # its chord through the jaws, against its way on, was a turn)
                turned = (self._deflected(rows, pts, i) or kinked) and not (
                    self._by_cushion(_at(rows, pts, t))
                    or self._ran_at_cushion(rows, pts, i)
                    or (i > 0 and self._ran_at_cushion(rows, pts, i - 1)))
                if moved or (moved is None and (turned or self._left_for_good(
                        tr, j, held[rows[i], j], rows[i], int(rows[i + 1])))):
                    found.append((t, j, i))
                    found.sort()
                    if not chord:
                        off_way.add(j)
                elif turned and (kinked or all(self._deflected(
                        rows, pts, i, span, place=held[rows[i], j])
                        for span in (1, c.weak_span))) and not self._ran_at_cushion(
                        rows, pts, i, c.weak_span) and not self._stayed_alone(
                        tr, j, w, held[rows[i]], rows, pts, i):
                    # seen still (a ball at rest is held until surely moving):
                    # taken if no ball is seen to set off soon after, and the
                    # cue ball kept to its new way (seed 588's passed a red 3 mm
                    # wide, its sightings beside it pulled 11 mm off its way),
                    # a slowing over either span only for a ball nearly full on
                    # its way (seed 2152's, misread 12 mm off its way as it
                    # passed the black 1 mm wide, slowed over three sightings
                    # as it struck a red beyond: the black was named),
                    # and no cushion turned it in that span (seed 1541's passed
                    # a red by the side cushion 2 mm wide, slowing into the
                    # cushion it came off two sightings on)
                    weak.append((t, j, i))
                else:
                    grazed.append((t, j))
            if not found and not weak and rows[i + 1] - rows[i] > c.gap_rows:
                unseen = self._unseen_contact(tr, held, objs, rows, pts, i)
                if unseen is not None:
                    return unseen
        first = min([f[0] for f in found[:1] + weak[:1]], default=math.inf)
        if np.isnan(tr.xy_mm[s0, w, 0]):  # put down and struck unseen
            behind = self._struck_before_seen(tr, held, objs, rows, pts, first)
            if behind is not None:
                return behind
        # a ball beside the cue ball, struck in the frame of the strike, comes
        # first even when the path reaches another later (seed 573: a red cut
        # thinly at 2 m/s, the chord from the rest place to the first sighting
        # passing wide of it; the black, reached 60 frames on, was named)
        beside = self._struck_from_beside(tr, held, objs, rows, pts, away)
        if beside is not None and beside[0] < first:
            r, j = beside
            return (tr.kinds[j],), r, 0.6, None
        left = self._grazed_then_left(tr, held, s0, grazed, first)
        if left is not None:
            return left
        # (a ball found only on the cue ball's approach followed on, after it
        # turned off one seen still, was not on its way: seed 626's red, struck
        # full in the pack, passed the blow on and stayed; the pink beyond it,
        # on the old line, set off three frames later, struck by the cue ball
        # on its new one. Nor can a ball set off soon after have turned the
        # cue ball when it lay a frame's run or more beyond touching it where
        # it turned: seed 626 made again, the pink 123 mm from the white at
        # its turn, reached on its new line 2 frames on)
        if weak and (not found or found[0][0] > weak[0][0] + c.weak_rows or (
                found[0][1] in off_way and weak[0][0] < found[0][0]) or (
                self._beyond_turn(rows, pts, weak[0], held[rows[found[0][2]],
                                                            found[0][1]]))):
            t0 = weak[0][0]
            kinds = sorted({tr.kinds[j] for t, j, _ in weak if t - t0 <= 1.0})
            if len(kinds) == 1:
                return (kinds[0],), math.ceil(t0 - 1e-9), 0.6, None
            # of balls the cue ball's way passes within the slack and one it
            # runs into, the latter (seed 793's break: the way passed the pink
            # 5 mm wide of touching, then ran 23 mm into a red of the pack)
            into = [(t, j) for t, j, i in weak if t - t0 <= 1.0
                    and self._runs_into(rows, pts, i, held[rows[i], j])]
            if len({tr.kinds[j] for _, j in into}) == 1:
                return ((tr.kinds[into[0][1]],), math.ceil(into[0][0] - 1e-9),
                        0.6, None)
            return ((tr.kinds[weak[0][1]],), math.ceil(t0 - 1e-9), 0.3,
                    Unknown.AMBIGUOUS_CONTACT)
        if not found:
            return self._no_contact_seen(tr, w, s0, objs, rows, pts, held[s0],
                                         grazed)
        _, j0, i0 = found[0]
        if rows[i0 + 1] - rows[i0] > HIDDEN_GAP_ROWS:
            # reached on the cue ball's chord across sightings it was unseen
            # long between, but another ball was seen to set off in that gap
            # before this one was seen away: the cue ball's way was not the chord
            # (seed 1348: unseen for 8 frames by the top cushion, the white
            # struck a red, came off the cushion and struck the black, which
            # was hidden until it was seen running off, 5 frames after the red)
            unseen = self._unseen_contact(tr, held, objs, rows, pts, i0)
            _, away = self._set_off(tr, held, j0, rows[i0], rows[i0 + 1], window=3)
            if unseen is not None and unseen[1] is not None and unseen[1] < away:
                return unseen
        # of balls struck within a row of each other, those the cue ball's way
        # only passes within the slack of come after one it runs into (seed
        # 1176: the white, at 2.5 m/s between a red and the pink 82 mm apart,
        # struck the red and kissed the pink a frame later; its sightings, 13
        # mm off, passed within the slack of the pink first), unless both were
        # seen leaving their places on the next two rows and the one passed
        # left first (seed 1317: the white, at 2 m/s, struck a red and then the
        # pink 2.7 ms later, in one frame's step; its chord, cutting the corner
        # of its turn off the red, passed the red only within the slack and ran
        # into the pink). Read to a row or so: a close call when they left
        # within ``close_call_rows`` of each other. A ball the way passes
        # within the slack is run into all the same when the cue ball, at
        # the sighting that ends that segment, was still heading into it
        # (seed 2279: the white's sighting lay 2 mm short of touching the
        # pink, its approach full into it; that approach, followed on past
        # the pink, reached a red touching it, and the red was named)
        unsure = False
        into = [f for f in found if f[0] - found[0][0] <= 1.0 and any(
            self._runs_into(rows, pts, i, held[rows[f[2]], f[1]])
            for i in range(f[2], min(f[2] + 2, len(rows) - 1)))]
        if into and into[0] is not found[0]:
            passed, hit = (self._left_at(tr, held, f[1], f[0])
                           for f in (found[0], into[0]))
            if passed is None or hit is None or hit < passed:
                found = [f for f in found if f[0] >= into[0][0]]
            unsure = passed is not None and hit is not None and abs(
                hit - passed) < c.close_call_rows
        t0, _, i0 = found[0]
        speed = float(np.linalg.norm(pts[i0 + 1] - pts[i0])) / float(
            rows[i0 + 1] - rows[i0])
        same = c.same_time_mm / max(speed, 1.0)
        at = int(rows[i0])
        cols = _distinct([j for t, j, _ in found if t - t0 <= same], held[at],
                         c.one_ball_mm, tr.visible[at])
        first = self._left_first(tr, held, cols, t0)
        if first is None and len(cols) > 1:
            first = self._approach_first(rows, pts, i0, held[at], cols)
        if first is None and len(cols) > 1:
            first = self._departure_first(tr, held, cols, t0,
                                          pts[i0 + 1] - pts[max(i0 - 2, 0)])
        if first is not None:
            cols, unsure = [first], True
        names = tuple(sorted(tr.kinds[j] for j in cols))
        row = math.ceil(t0 - 1e-9)
        gap = int(rows[i0 + 1] - rows[i0])
        close = unsure or any(same < t - t0 <= c.close_call_mm / max(speed, 1.0)
                              for t, _, _ in found)
        if gap <= 1:
            return names, row, CLOSE_CALL if close else 0.95, None
        if gap <= HIDDEN_GAP_ROWS:
            return names, row, CLOSE_CALL if close else 0.8, None
        return names, row, 0.5, Unknown.HIDDEN_AT_CONTACT

    def _left_first(self, tr: StrokeTracks, held: np.ndarray, cols: list[int],
                    t: float) -> int | None:
        """Of balls of more than one kind the cue ball's way reached at once
        (``cols``, about row ``t``), the one that left its place
        ``left_apart_rows`` or more before every other (``_left_at``), or None
        (one kind, or the footage cannot tell). The way, a straight chord
        between sightings a frame apart, cannot order two contacts in one
        frame; when each ball was seen leaving, their leaving can (seed 1483:
        the white struck a red, then the pink 15 ms on; the chord reached
        them 1 ms apart, and the pink, struck "at once" with the red when a
        red was on, was called a foul; they were read leaving 0.34 rows
        apart)."""
        if len({tr.kinds[j] for j in cols}) < 2:
            return None
        left = [(self._left_at(tr, held, j, t), j) for j in cols]
        if any(at is None for at, _ in left):
            return None
        left.sort()
        (first, j), (second, _) = left[0], left[1]
        assert first is not None and second is not None
        return j if second - first >= self.config.left_apart_rows else None

    def _approach_first(self, rows: np.ndarray, pts: np.ndarray, i0: int,
                        places: np.ndarray, cols: list[int]) -> int | None:
        """Of balls the cue ball's way reached at once (``cols``, at rest at
        ``places``: (N, 2) mm by column) on its segment ``i0``, the one its
        approach reached first by more than the approach is known to, or None.
        The approach is the straight line fitted to its last sightings up to
        the segment (``APPROACH_SIGHTINGS``, a frame or two apart); how well
        it is known across the way comes from their scatter about it, and a
        ball it reaches thinly, whose contact moves far along the way for a
        little across it, is placed less surely. The chord into the sighting
        after a contact cuts the corner of the turn, and can reach two balls
        at once that the way reached apart (seed 1796: the white struck a red
        full at 3 m/s and another thinly a frame later; the chord reached them
        1 mm apart, the approach 10 mm)."""
        k = i0
        while (k > 0 and i0 - k + 1 < APPROACH_SIGHTINGS
               and rows[k] - rows[k - 1] <= 2):
            k -= 1
        n = i0 - k + 1
        if n < 4:
            return None
        r = (rows[k:i0 + 1] - rows[i0]).astype(np.float64)
        a = np.vstack([r, np.ones(n)]).T
        fit, *_ = np.linalg.lstsq(a, pts[k:i0 + 1], rcond=None)
        v, p0 = fit
        speed = float(np.linalg.norm(v))
        if speed < 1.0:
            return None
        u = v / speed
        normal = np.array([-u[1], u[0]])
        across = (pts[k:i0 + 1] - a @ fit) @ normal
        spread = math.sqrt(float(across @ across) / (n - 2))
        # (how well the line is known across the way a frame past its end)
        sxx = float(((r - r.mean()) ** 2).sum())
        line = spread * math.sqrt(1.0 / n + (1.0 - r.mean()) ** 2 / sxx)
        touch = 2 * self.spec.ball_radius
        reached = []
        for j in cols:
            d = places[j] - p0
            h = abs(float(d @ normal))
            if h > touch + 2 * line:
                continue  # (not on the approach: reached after a turn)
            h = min(h, 0.999 * touch)
            cos = math.sqrt(touch**2 - h**2)
            reached.append((float(d @ u) - cos, line * (1.0 + h / cos), j))
        if not reached:
            return None
        reached.sort()
        if len(reached) == 1:
            return reached[0][2]
        (s1, e1, j1), (s2, e2, _) = reached[0], reached[1]
        # (the errors are each the line's, at its uncertainty once: the two
        # move together, and are known from a handful of sightings)
        return j1 if s2 - s1 > APPROACH_SHARE * (e1 + e2) + (
            self.config.same_time_mm) else None

    def _departure_first(self, tr: StrokeTracks, held: np.ndarray,
                         cols: list[int], t: float, way: np.ndarray) -> int | None:
        """Of balls the cue ball's way (``way``: (2,) mm, its going) reached at
        once (``cols``, about row ``t``), the one it struck first, read from
        the way each set off, or None (fewer than two seen going off straight
        on ``DEPART_ROWS``, or too close to tell). A struck ball leaves along
        the line of centres, so the cue ball's centre at that contact lay 2R
        behind the ball's place against its going: the contact first along
        the cue ball's way came first, by more than the throw (``THROW_DEG``)
        and the errors of the two ways off allow. Seed 2151: the white, at 2
        m/s, split the pink and a red 85 mm apart, striking the pink 2 ms
        before the red; its three sightings on the way could not order them,
        both were named and a foul called; the centres read from their ways
        off lay 5 mm apart along its way."""
        c = self.config
        touch = 2 * self.spec.ball_radius
        u = way / max(float(np.linalg.norm(way)), 1e-9)
        r0 = math.floor(t) + 1
        reached = []
        for j in cols:
            place = held[r0 - 1, j]
            ks = [k for k in range(r0, min(r0 + DEPART_ROWS, len(tr.frames)))
                  if tr.visible[k, j] and float(np.linalg.norm(
                      tr.xy_mm[k, j] - place)) > c.moved_mm]
            if len(ks) < 4:
                return None
            slope, _, error = line_fit(np.array(ks, np.float64), tr.xy_mm[ks, j])
            speed = float(np.linalg.norm(slope))
            if speed < 1.0:
                return None
            at = place - touch * slope / speed
            reached.append((float(at @ u), touch * error / speed, j))
        reached.sort()
        (s1, e1, j1), (s2, e2, _) = reached[0], reached[1]
        throw = touch * math.sin(math.radians(THROW_DEG))
        return j1 if s2 - s1 > throw + e1 + e2 else None

    def _left_at(self, tr: StrokeTracks, held: np.ndarray, j: int, t: float
                 ) -> float | None:
        """Fractional row at which ball ``j``, struck at about row ``t``, left
        its place: its sightings on the two rows after ``t`` (the row after
        that and the next, where the first still shows it at its place), both
        away from it and the second farther on, followed back to it at the
        speed between them. None when the footage cannot tell (unseen, or
        still held at its place: a ball at rest is held until surely moving)
        or the two do not run back to about ``t``."""
        c = self.config
        for r in (math.floor(t) + 1, math.floor(t) + 2):
            # (or on the two after, where it had not left by the first: seed
            # 1423's white struck a red a tenth of a frame after ``t`` said,
            # then the green beyond it in the same frame; the red, seen at its
            # place on the row after ``t``, could not say when it left, and
            # the green, run into, was named)
            if r + 1 >= len(tr.frames):
                return None
            ref = held[r - 1, j]
            if not tr.visible[r:r + 2, j].all():
                return self._left_unseen_at(tr, j, t, r, ref)
            d1, d2 = (float(np.linalg.norm(tr.xy_mm[k, j] - ref))
                      for k in (r, r + 1))
            if d1 <= c.moved_mm:
                continue
            if not d2 > d1 + c.moved_mm:
                return None
            back = r - d1 / (d2 - d1)
            return back if back > t - 2.0 else None
        return None

    def _left_unseen_at(self, tr: StrokeTracks, j: int, t: float, r: int,
                        ref: np.ndarray) -> float | None:
        """``_left_at`` for ball ``j`` unseen from row ``r`` on, or from the
        row after (still at ``ref``, its place, on ``r``): its first two
        sightings a row apart within ``UNSEEN_LEAVING_ROWS`` of ``t``, both
        away and the second farther on, followed back to its place at the
        speed between them, when their line runs back through it. Read early
        by the little a struck ball slows on the way. Seed 2631: the white, at
        2.8 m/s, struck the pink and a red 0.7 rows later; the pink, blurred,
        was unseen for three rows and found 440 mm on, the red seen leaving:
        the red was named, a foul."""
        c = self.config
        xy, vis = tr.xy_mm[:, j], tr.visible[:, j]
        for k in range(r, min(len(tr.frames) - 1, math.floor(t) + UNSEEN_LEAVING_ROWS)):
            if np.isnan(xy[k, 0]):
                return None
            if not vis[k]:
                continue
            d1 = float(np.linalg.norm(xy[k] - ref))
            if d1 <= c.moved_mm:
                continue  # (held at its place)
            if not vis[k + 1] or np.isnan(xy[k + 1, 0]):
                return None
            step = xy[k + 1] - xy[k]
            d2 = float(np.linalg.norm(xy[k + 1] - ref))
            if not d2 > d1 + c.moved_mm:
                return None
            speed = float(np.linalg.norm(step))
            if abs(_cross(step, xy[k] - ref)) / speed > 2 * self.spec.ball_radius:
                return None  # (its line does not run back through its place)
            back = k - d1 / speed
            return back if back > t - 2.0 else None
        return None

    def _struck_from_beside(
        self, tr: StrokeTracks, held: np.ndarray, objs: list[int],
        rows: np.ndarray, pts: np.ndarray, away: int,
    ) -> tuple[int, int] | None:
        """``(row, column)`` of a ball beside the cue ball at the strike
        (within ``beside_mm`` of touching it, or within the cue ball's first
        step from its place, taken in one row) that set off from it (along the
        line of centres) by soon after the cue ball was seen to leave its
        place, when the cue ball's path reached no ball: struck at once, in the
        frame of the strike, while the cue ball was still read at its place
        (half hidden by the cue, or screwing back towards it: seed 416), or
        turned off it before it was first seen (seed 682's, 82 mm off a red and
        116 mm on in the first frame). The earliest to set off; None when there
        is none."""
        c = self.config
        if away == len(pts):  # (``away``: its first sighting away, ``_contact``)
            return None
        a = pts[0]
        s0, r_away = int(rows[0]), int(rows[away])
        step = float(np.linalg.norm(pts[away] - a)) if rows[away] - rows[
            away - 1] == 1 else 0.0
        near = 2 * self.spec.ball_radius + max(c.beside_mm, step)
        best: tuple[int, float, int] | None = None
        for j in objs:
            q = held[s0, j]
            d = float(np.linalg.norm(q - a))
            if np.isnan(q[0]) or d > near:
                continue
            moved, r = self._set_off(tr, held, j, s0, r_away, q - a)
            if moved and r > s0 and (best is None or (r, d) < best[:2]):
                best = (r, d, j)
        return None if best is None else (min(best[0], r_away), best[2])

    def _struck_before_seen(
        self, tr: StrokeTracks, held: np.ndarray, objs: list[int],
        rows: np.ndarray, pts: np.ndarray, before: float,
    ) -> tuple[tuple[str, ...], int, float, Unknown] | None:
        """The cue ball first seen moving (its place at the strike unknown: put
        down and struck under the player): a ball at rest behind its path's
        start (on its first way followed back, within as far as it can have
        come in ``gap_rows`` rows, plus ``beside_mm``) that left its place for
        good before row ``before`` (the first contact found on the path):
        until the first contact only the cue ball moves, so it struck that one
        first, unseen (seed 3452's, placed in the D beside the yellow and
        struck into it, was first seen 150 mm on, and the brown it reached
        next was named). The nearest behind, flagged hidden; None if none."""
        c = self.config
        k = next((k for k in range(1, len(pts)) if float(np.linalg.norm(
            pts[k] - pts[0])) > 2 * self.spec.ball_radius), None)
        if k is None:
            return None
        way = pts[k] - pts[0]
        length = float(np.linalg.norm(way))
        speed = length / float(rows[k] - rows[0])
        back = -way / length * (speed * c.gap_rows + c.beside_mm)
        s0 = int(rows[0])
        reach = 2 * self.spec.ball_radius + c.contact_tol_mm
        best: tuple[float, int] | None = None
        for j in objs:
            q = held[s0, j]
            u = _ray_hit(pts[0], back, q, reach)
            if u is None or not self._movers(tr, s0, [j], held[s0]):
                continue
            left = self._left_place(tr, j, q, s0, c.spurious_mm)
            if left is not None and left < before and (best is None or u < best[0]):
                best = (u, j)
        if best is None:
            return None
        return (tr.kinds[best[1]],), s0, 0.5, Unknown.HIDDEN_AT_CONTACT

    def _beyond_turn(self, rows: np.ndarray, pts: np.ndarray,
                     turn: tuple[float, int, int], place: np.ndarray) -> bool:
        """Did a ball at ``place`` (mm) lie more than a frame's run of the cue
        ball beyond touching it where it turned (``turn``: (fractional row,
        column, segment) of a turn off a ball seen still)? Then that ball
        cannot have turned it."""
        t, _, i = turn
        step = float(np.linalg.norm(pts[i + 1] - pts[i])) / float(
            rows[i + 1] - rows[i])
        gap = float(np.linalg.norm(place - _at(rows, pts, t)))
        return gap > 2 * self.spec.ball_radius + step

    def _grazed_then_left(
        self, tr: StrokeTracks, held: np.ndarray, s0: int,
        grazed: list[tuple[float, int]], before: float,
    ) -> tuple[tuple[str, ...], int, float, Unknown] | None:
        """A ball the cue ball's way reached before row ``before`` (the first
        contact found on it) that was seen neither to set off nor to turn the
        cue ball then (``grazed``: (fractional row, column)), yet was seen
        ``spurious_mm`` from its place, or gone, before that row and left it
        for good (``_movers``): until the first contact only the cue ball
        moves, so it struck that one first (seed 1548: the white, at 2.7 m/s,
        struck a red by the top-right pocket into the jaws, where the far
        broadcast view lost it and the tracker held it at its place; it was
        seen running out 15 frames on, and the brown, reached 170 frames
        later, was named); a guess, flagged. None if there is no such ball."""
        c = self.config
        for t, j in sorted(grazed):
            if t >= before:
                break
            r0 = math.floor(t)
            if not self._movers(tr, s0, [j], held[s0], after=r0):
                continue
            left = self._left_place(tr, j, held[s0, j], r0, c.spurious_mm)
            if left is not None and left < before:
                return ((tr.kinds[j],), math.ceil(t - 1e-9), 0.3,
                        Unknown.ONLY_GRAZED)
        return None

    @staticmethod
    def _left_place(tr: StrokeTracks, j: int, place: np.ndarray, r0: int,
                    mm: float) -> int | None:
        """First row from ``r0`` on at which ball ``j`` was seen more than
        ``mm`` from ``place`` ((2,) mm), or was gone; None if never."""
        xy = tr.xy_mm[r0:, j]
        ok = tr.visible[r0:, j] & ~np.isnan(xy[:, 0])
        d = np.where(ok, np.linalg.norm(xy - place, axis=1), 0.0)
        off = np.flatnonzero((d > mm) | np.isnan(xy[:, 0]))
        return r0 + int(off[0]) if len(off) else None

    def _no_contact_seen(
        self, tr: StrokeTracks, w: int, s0: int, objs: list[int], rows: np.ndarray,
        pts: np.ndarray, start: np.ndarray,
        grazed: Sequence[tuple[float, int]] = (),
    ) -> tuple[tuple[str, ...], int | None, float, Unknown | None]:
        """The path reached no ball that set off. Seen to its end, that is a
        miss, unless a ball left its place for good (``_movers``) after the
        path first reached one that was seen neither to set off nor to turn
        the cue ball (``grazed``: (fractional row, column)s): balls do not set
        off by themselves, so that one was struck, thinly (seed 1270's break:
        the white, at 6 m/s, grazed a red of the pack's back row, held still
        by the tracker, and a red beyond it ran off; a miss of every ball was
        called); or unless one reached was nudged (``_nudged``); a guess,
        flagged. With the cue ball lost from sight, the
        best guess is the ball that left its place for good nearest where it
        was last seen."""
        c = self.config
        t_len = len(tr.frames)
        lost = not np.isnan(tr.xy_mm[-1, w, 0]) and (
            int(rows[-1]) < t_len - 1 - c.lost_rows)
        if not lost and grazed:
            first = min(grazed)
            struck = first if self._movers(
                tr, s0, objs, start, after=math.floor(first[0])) else next(
                ((t, j) for t, j in sorted(grazed) if self._nudged(
                    tr, j, start[j], _at(rows, pts, t), math.floor(t))), None)
            if struck is not None:
                t, j = struck
                return (tr.kinds[j],), math.ceil(t - 1e-9), 0.3, Unknown.ONLY_GRAZED
        if not lost:
            # gaps were searched for balls struck unseen (``_struck_unseen``)
            gaps = int(np.diff(rows).max()) > c.gap_rows
            return (), None, 0.8 if gaps else 0.9, None
        movers = self._movers(tr, s0, objs, start)
        if not movers:
            return (), None, 0.4, Unknown.HIDDEN_AT_CONTACT
        end = pts[-1]
        j = min(movers, key=lambda j: float(np.linalg.norm(start[j] - end)))
        return (tr.kinds[j],), None, 0.3, Unknown.HIDDEN_AT_CONTACT

    def _nudged(self, tr: StrokeTracks, j: int, place: np.ndarray,
                cue: np.ndarray, r0: int) -> bool:
        """Was ball ``j``, at ``place`` when the cue ball's way grazed it from
        ``cue`` (both (2,) mm) at row ``r0``, last seen ``nudged_mm`` to
        ``spurious_mm`` from that place, along the line of centres (within
        25 degrees)? A thin contact at a walking pace barely moves a ball, but
        only the way the cue ball pushes it (seed 1747's white, at 0.12 m/s,
        grazed a red and nudged it 4.7 mm, held at its place by the tracker
        until it had stopped; a miss was called)."""
        c = self.config
        xy = tr.xy_mm[r0:, j]
        ok = tr.visible[r0:, j] & ~np.isnan(xy[:, 0])
        if not ok.any() or float(np.linalg.norm(xy[ok][0] - place)) > c.moved_mm:
            return False
        shift, push = xy[ok][-1] - place, place - cue
        n = float(np.linalg.norm(shift))
        return c.nudged_mm <= n < c.spurious_mm and float(shift @ push) >= 0.9 * (
            n * float(np.linalg.norm(push)))

    def _movers(self, tr: StrokeTracks, s0: int, objs: list[int],
                start: np.ndarray, after: int | None = None) -> list[int]:
        """The columns of ``objs`` gone from the table by the stroke's end, or
        ``spurious_mm`` from their places (``start``: (N, 2) mm) when last
        seen; with ``after`` (a row), only those still at their places
        (within ``moved_mm``, or unseen) up to it."""
        c = self.config
        out = []
        for j in objs:
            xy = tr.xy_mm[s0:, j]
            ok = tr.visible[s0:, j] & ~np.isnan(xy[:, 0])
            d = np.where(ok, np.linalg.norm(xy - start[j], axis=1), 0.0)
            if after is not None and (d[:max(0, after - s0)] > c.moved_mm).any():
                continue  # left before
            if np.isnan(xy[-1, 0]) or (ok.any() and float(
                    d[np.flatnonzero(ok)[-1]]) > c.spurious_mm):
                out.append(j)
        return out

    def _first_to_leave(
        self, tr: StrokeTracks, s0: int, objs: list[int], start: np.ndarray,
    ) -> tuple[tuple[str, ...], int | None, float, Unknown | None]:
        """The cue ball not seen in the stroke (struck under the player, and
        read as another ball as it ran: ``StrokeSegmenter._struck_unseen``):
        the best guess is the ball first seen ``moved_mm`` off its place
        (``start``: (N, 2) mm) of those that left it for good (gone from the
        table, or ``spurious_mm`` from it when last seen)."""
        c = self.config
        best: tuple[int, int] | None = None
        for j in self._movers(tr, s0, objs, start):
            left = self._left_place(tr, j, start[j], s0, c.moved_mm)
            if left is not None and (best is None or left < best[0]):
                best = (left, j)
        if best is None:
            return (), None, 0.4, Unknown.HIDDEN_AT_CONTACT
        return (tr.kinds[best[1]],), best[0], 0.3, Unknown.HIDDEN_AT_CONTACT

    # -- pots and balls off the table ---------------------------------------

    def _vanished(self, tr: StrokeTracks, s0: int) -> list[Gone]:
        """Balls gone by the end: (column, row, kind, pocket, confidence, unknown)."""
        c = self.config
        out = []
        t_len = len(tr.frames)
        hl, hw = self.spec.half_length, self.spec.half_width
        rolling = self._rolling_rows(tr)
        for j in range(tr.xy_mm.shape[1]):
            xy = tr.xy_mm[:, j]
            present = ~np.isnan(xy[:, 0])
            was = not np.isnan(tr.before_mm[j, 0]) or present[s0:].any()
            if not was:
                continue
            vis = tr.visible[:, j] & present
            seen = np.flatnonzero(vis)
            put_back = _put_back(xy, seen, s0, tr.kinds[j], self.spec, c,
                                 np.delete(rolling, j, axis=1).any(axis=1))
            if put_back is not None:
                seen = seen[: put_back + 1]
            elif present[-1] and (not len(seen) or seen[-1] >= t_len - 3):
                continue
            if present[-1] and put_back is None:
                # held hidden to the end: off the table only if it left moving
                # over a cushion; otherwise it is hidden at rest (not an event)
                if not len(seen) or seen[-1] < s0:
                    continue
                # (its speed over its last few sightings: seed 2768's brown,
                # creeping at 3 mm a frame into a far corner's jaws, its last
                # reading 6 mm on, was taken for potted; it stopped there,
                # hidden behind the jaw)
                step = last_step(xy, seen, steps=STEADY_STEPS)
                if np.linalg.norm(step) < 5.0 and not self._rolls_into_fall(
                        xy[seen[-1]], step):
                    continue
            seen = seen[seen >= s0 - 1]
            if len(seen) == 0:
                held_to = np.flatnonzero(present)
                if (not tr.interrupted and not present[-1] and len(held_to)
                        and held_to[-1] >= s0 and self._in_mouth(xy[held_to[-1]])):
                    # held hidden in a pocket's jaws, and let go by the tracker
                    # once a ball came to touch it: it dropped (seed 1058's
                    # red, stopped in a near corner's jaws behind the cushion,
                    # was knocked in unseen two strokes later)
                    out.append((j, int(held_to[-1]) + 1, EventKind.POT,
                                self._nearest_pocket(xy[held_to[-1]]), 0.5,
                                Unknown.POCKET_UNSEEN))
                    continue
                if not tr.interrupted:
                    continue
                out.append((j, s0, EventKind.POT, None, 0.4, Unknown.CAMERA_CUT))
                continue
            k = int(seen[-1])
            p = xy[k]
            v = last_step(xy, seen)
            if not v.any():
                v = self._on_along(xy, seen)
            ahead = p + 1.5 * v
            gone_row = min(k + 1, t_len - 1)
            name, dist = min(((n, float(min(np.linalg.norm(q - p),
                                             np.linalg.norm(q - ahead))))
                              for n, q in self._pockets.items()),
                             key=lambda x: x[1])
            out_of_bed = abs(ahead[0]) > hl or abs(ahead[1]) > hw
            # by a cushion and running at it (not along it, as under a score bar)
            at_cushion = any(
                abs(p[a]) > lim - 120 and v[a] * math.copysign(1.0, p[a])
                >= c.off_speed_mm for a, lim in ((0, hl), (1, hw)))
            over = self._over_nose(p, v)
            if dist <= c.pocket_mm and not over:
                conf = 0.95 if dist < c.pocket_mm * 0.7 else 0.7
                out.append((j, gone_row, EventKind.POT, name, conf, None))
            elif over or out_of_bed or at_cushion:
                out.append((j, gone_row, EventKind.OFF_TABLE, None, 0.8, None))
            elif tr.interrupted:
                out.append((j, gone_row, EventKind.POT, None, 0.4,
                            Unknown.CAMERA_CUT))
            elif not present[-1] and (
                    (aimed := self._aimed_pocket(p, v)) is not None or (
                        dist < 2 * c.pocket_mm
                        and float(v @ (self._pockets[name] - p)) > 0.0)):
                # vanished for good heading into a pocket's mouth, out of sight
                out.append((j, gone_row, EventKind.POT, Pocket(aimed or name).value,
                            0.3, Unknown.POCKET_UNSEEN))
            elif put_back is None:
                # lost mid-table (held where last seen, or gone without a
                # pocket near): no pot, only an honest "unknown" (one seen
                # again far away was not put back, but misread)
                out.append((j, gone_row, EventKind.LOST, None, 0.3,
                            Unknown.BALL_LOST))
        out.sort(key=lambda e: e[1])
        return out

    def _rolling_rows(self, tr: StrokeTracks) -> np.ndarray:
        """(T, N) bool: rows in which each ball, seen then and ``ROLL_ROWS``
        rows before, had moved ``moved_mm`` or more a row since."""
        xy, vis = tr.xy_mm, tr.visible & ~np.isnan(tr.xy_mm[..., 0])
        out = np.zeros(vis.shape, bool)
        k = ROLL_ROWS
        if len(out) > k:
            step = np.linalg.norm(xy[k:] - xy[:-k], axis=2)
            out[k:] = vis[k:] & vis[:-k] & (step >= k * self.config.moved_mm)
        return out

    def _on_along(self, xy: np.ndarray, seen: np.ndarray) -> np.ndarray:
        """(2,) mm a row: the mean step of a ball seen last after a while
        unseen (up to ``lost_rows`` rows), on along the line it was rolling
        on before (within ``along_deg``; the tracker takes it back there
        though it reads its kind unsurely, ``BallTracker._ahead``); zero
        otherwise. Seed 1535's pink, struck at 2.3 m/s, was unseen for 10
        rows, seen once 300 mm short of the baulk-left pocket, and gone:
        with no step of its own it was taken for lost, not potted."""
        if len(seen) < 3:
            return np.zeros(2)
        chord = last_step(xy, seen, self.config.lost_rows)
        before = last_step(xy, seen[:-1])
        size = float(np.linalg.norm(chord)) * float(np.linalg.norm(before))
        if size == 0.0 or float(chord @ before) < size * math.cos(
                math.radians(self.config.along_deg)):
            return np.zeros(2)
        return chord

    def _knocked_in(
        self, tr: StrokeTracks, w: int, fc: tuple[str, ...], fc_row: int,
        gone: set[int], held: np.ndarray, rows: np.ndarray, pts: np.ndarray,
    ) -> list[Gone]:
        """First-contact balls knocked into a pocket before they could be seen
        moving (``_knocked_one``), then balls the cue ball's way ran into later
        that lay in a pocket's mouth (``_touched_in``). ``gone``: columns
        already gone (``_vanished``); ``held``, ``rows``, ``pts``: as
        ``_first_contact`` was given them."""
        if len(rows) < 2 or np.isnan(tr.xy_mm[fc_row:, w, 0]).all():
            return []
        white = _at(rows, pts, float(fc_row))
        out: list[Gone] = []
        done = set(gone)
        for name in fc:
            cols = [j for j in range(len(tr.kinds)) if tr.kinds[j] == name
                    and j not in gone and not np.isnan(held[fc_row, j, 0])]
            if cols:
                j = min(cols, key=lambda k: float(np.linalg.norm(
                    held[fc_row, k] - white)))
                done.add(j)
                knocked = self._knocked_one(tr, j, fc_row, held[fc_row, j],
                                            rows, pts, far=True)
                out += [knocked] if knocked is not None else []
        out += self._touched_in(tr, w, fc_row, done, held, rows, pts)
        return out

    def _touched_in(
        self, tr: StrokeTracks, w: int, fc_row: int, done: set[int],
        held: np.ndarray, rows: np.ndarray, pts: np.ndarray,
    ) -> list[Gone]:
        """Balls in a pocket's mouth that the cue ball's way ran into after the
        first contact (row ``fc_row``), seen there until it did and never again
        (``_knocked_one``, near pockets only). Seed 2811's white (overhead)
        struck a red, came off the top cushion into a red in the top-left
        jaws, which dropped two frames later; the tracker held it there,
        unseen, and the pot was missed. ``done``: columns not to read."""
        done = set(done)
        objs = [j for j in range(len(tr.kinds)) if j != w and j not in done]
        out: list[Gone] = []
        for i in np.flatnonzero(rows[:-1] >= fc_row):
            for t, k, chord in self._segment_hits(rows, pts, int(i),
                                                  held[rows[i], objs]):
                j = objs[k]
                row = math.ceil(t - 1e-9)
                q = held[rows[i], j]
                if not chord or j in done or not self._in_mouth(q):
                    continue
                done.add(j)
                seen = np.flatnonzero(tr.visible[:row + 1, j])
                if not len(seen) or seen[-1] < row - 1:
                    continue  # not seen there as the cue ball came
                knocked = self._knocked_one(tr, j, row, q, rows, pts, far=False)
                out += [knocked] if knocked is not None else []
        return out

    def _knocked_one(
        self, tr: StrokeTracks, j: int, row: int, q: np.ndarray,
        rows: np.ndarray, pts: np.ndarray, far: bool,
    ) -> Gone | None:
        """Ball ``j``, at ``q`` (mm), struck by the cue ball in ``row`` (its
        path ``rows``, ``pts``), knocked into a pocket before it could be seen
        moving: never seen again from two rows after the contact (the tracker
        holds it, hidden, where it stood; sightings that are not it,
        ``_not_it``, do not count), with a pocket within ``2 * pocket_mm``
        ahead of it along the line of centres at the contact (within
        ``knock_deg``), or, if ``far``, farther, with the line of centres
        leaving the bed through a pocket's opening (``_aimed_pocket``;
        confidence 0.3). Never seen again needs ``lost_rows`` rows of the
        stroke after the contact, or ``jaws_rows`` for a ball in that pocket's
        mouth. Potted there, unseen; as ``_vanished`` gives."""
        c = self.config
        r2 = 2 * self.spec.ball_radius
        after = row + 3
        if len(tr.frames) - after < c.jaws_rows:
            return None
        push = q - self._contact_point(rows, pts, row, q, r2)
        if (float(np.linalg.norm(push)) > r2 + 3 * c.contact_tol_mm
                or np.isnan(tr.xy_mm[-1, j, 0])):
            return None
        push /= max(float(np.linalg.norm(push)), 1e-9)
        near = [pocket for pocket, centre in self._pockets.items()
                if (dist := float(np.linalg.norm(centre - q))) <= 2 * c.pocket_mm
                and float((centre - q) @ push) >= dist * math.cos(
                    math.radians(c.knock_deg))]
        if len(tr.frames) - after < c.lost_rows and not (near and self._in_mouth(q)):
            return None  # too few rows to say it was not seen again (a ball
            # in a pocket's mouth needs fewer: seed 1000's red, in the
            # top-right jaws, struck by the white, which followed it in
            # 9 rows later and was put down in the D at once)
        seen = np.flatnonzero(tr.visible[after:, j]) + after
        if len(seen) and not (near and self._not_it(
                tr.xy_mm[seen, j], int(seen[0]) - after, q, push,
                self._pockets[near[0]])):
            return None  # seen again
        if self._off_as_another(tr, j, q, push, row):
            return None  # seen again, its track another's
        if near:
            return (j, row + 1, EventKind.POT, Pocket(near[0]).value, 0.5,
                    Unknown.POCKET_UNSEEN)
        if not far:
            return None
        # farther: struck too hard to be seen (a blur, past the detector)
        # on a straight way that leaves the bed through a pocket's opening
        # (seed 731's pink, struck at 2.5 m/s 2.5 m from a baulk corner,
        # was seen only in its jaws; held at its place, it was not potted),
        # thrown a little off it towards the cue ball's way (seed 871's
        # black, cut 15 degrees into a middle pocket 1.7 m away, left 2.4
        # degrees off the line of centres, which met the side cushion
        # 170 mm from the pocket)
        for way in self._thrown(push, self._way_in(rows, pts, row)):
            aimed = self._aimed_pocket(q, way * c.off_speed_mm, math.inf)
            if aimed is not None:
                return (j, row + 1, EventKind.POT, Pocket(aimed).value, 0.3,
                        Unknown.POCKET_UNSEEN)
        return None

    def _off_as_another(self, tr: StrokeTracks, j: int, q: np.ndarray,
                        push: np.ndarray, fc_row: int) -> bool:
        """Was ball ``j``, struck at row ``fc_row`` from ``q`` (mm) along
        ``push`` (unit) and never seen again, seen going off under another
        track of its kind, one unseen at the contact? Twice within
        ``lost_rows`` rows, more than two radii ahead of ``q`` and within
        ``knock_deg`` of ``push`` (seed 2374: a red struck towards a middle
        pocket, its sightings taken by a track of a red lost after the break
        and held hidden 62 mm from it; its own track, held at its place, was
        never seen again, and it was called knocked in)."""
        c = self.config
        cos = math.cos(math.radians(c.knock_deg))
        stop = min(len(tr.frames), fc_row + 1 + c.lost_rows)
        for k in range(len(tr.kinds)):
            if k == j or tr.kinds[k] != tr.kinds[j] or tr.visible[fc_row, k]:
                continue
            rows = np.flatnonzero(tr.visible[fc_row + 1:stop, k]) + fc_row + 1
            off = tr.xy_mm[rows, k] - q
            dist = np.linalg.norm(off, axis=1)
            ahead = (dist > 2 * self.spec.ball_radius) & (off @ push >= dist * cos)
            if int(ahead.sum()) >= 2:
                return True
        return False

    def _not_it(self, later: np.ndarray, unseen: int, q: np.ndarray,
                push: np.ndarray, pocket: np.ndarray) -> bool:
        """Are ``later`` sightings (``(K, 2)`` mm, the first ``unseen`` rows
        after a ball at ``q`` was struck along ``push`` towards ``pocket``) not
        that ball? They begin ``lost_rows`` or more later, none at its place
        or ahead of it along ``push``, and all in that pocket's mouth: the
        ball went in, and something else there was read as it (seed 908's
        red, knocked in; three seconds later the player's cue butt, read red,
        took its track in the jaws)."""
        c = self.config
        off = later - q
        return bool(unseen >= c.lost_rows
                    and np.all(np.linalg.norm(off, axis=1) > c.spurious_mm)
                    and np.all(off @ push <= 0.0)
                    and np.all(np.linalg.norm(later - pocket, axis=1)
                               <= c.pocket_mm))

    def _thrown(self, push: np.ndarray, came: np.ndarray | None
                ) -> list[np.ndarray]:
        """Ways (unit (2,)) a ball struck along the unit line of centres
        ``push`` may leave: along it, then turned towards the cue ball's way
        in, ``came`` (None: unknown), by half and all of ``throw_deg``."""
        if came is None:
            return [push]
        side = math.copysign(1.0, float(push[0] * came[1] - push[1] * came[0]))
        ways = [push]
        for share in (0.5, 1.0):
            a = side * math.radians(share * self.config.throw_deg)
            cos, sin = math.cos(a), math.sin(a)
            ways.append(np.array([cos * push[0] - sin * push[1],
                                  sin * push[0] + cos * push[1]]))
        return ways

    @staticmethod
    def _way_in(rows: np.ndarray, pts: np.ndarray, row: int) -> np.ndarray | None:
        """Unit (2,) way the cue ball came to a contact in ``row`` (``_line_in``;
        None without one, or with its sightings not apart)."""
        line = _line_in(rows, pts, row)
        if line is None:
            return None
        n = float(np.linalg.norm(line[1]))
        return line[1] / n if n > 1e-9 else None

    @staticmethod
    def _contact_point(rows: np.ndarray, pts: np.ndarray, row: int, q: np.ndarray,
                       r2: float) -> np.ndarray:
        """(2,) where the cue ball, coming along its path (``rows``, ``pts``) to
        a contact in ``row``, touched the ball at ``q``: its line in
        (``_line_in``), run on to ``r2`` from ``q`` (the sighting at the
        contact's row has already turned off it: seed 455's red, knocked into
        a corner 95 mm away, was pushed 39 degrees off the pocket by that
        chord, 11 by the line in); where the path is at ``row`` without one."""
        line = _line_in(rows, pts, row)
        if line is not None:
            p, step = line
            ahead = 3.0 * step
            u = _ray_hit(p, ahead, q, r2)
            if u is not None:
                return p + u * ahead
        return _at(rows, pts, float(row))

    # -- cushions ---------------------------------------------------------------

    def _cushions(self, tr: StrokeTracks, fc_row: int) -> list[tuple[int, int, str]]:
        """(column, row, cushion) bounces at or after the first contact."""
        c = self.config
        hl, hw = self.spec.touch_limits
        out = []
        sides = (("top", 0, 1.0, hl), ("baulk", 0, -1.0, hl),
                 ("left", 1, 1.0, hw), ("right", 1, -1.0, hw))
        for j in range(tr.xy_mm.shape[1]):
            xy = tr.xy_mm[:, j]
            vis = tr.visible[:, j] & ~np.isnan(xy[:, 0])
            rows = np.flatnonzero(vis)
            rows = rows[rows >= fc_row - 1]
            if len(rows) < 3:
                continue
            p = xy[rows]
            for name, axis, sign, lim in sides:
                n = lim - sign * p[:, axis]  # distance of the centre from the nose
                vn = np.diff(sign * p[:, axis])  # + towards the cushion
                for i in range(1, len(p) - 1):
                    # back off it at once, or after one sighting at the nose
                    # (the bounce between two sightings there: seed 993's red,
                    # 857, 857 mm from the middle, 5.8 mm off the nose)
                    k = i + 1 if abs(vn[i]) <= 0.5 and i + 1 < len(vn) else i
                    if not (vn[i - 1] > 0.5 and vn[k] < -0.5):
                        continue
                    step = max(abs(vn[i - 1]), abs(vn[k]))
                    if n[i] > step + c.cushion_tol_mm:
                        continue
                    # in a pocket mouth the jaws, not the cushion, turn it back
                    if self._near_pocket(p[i]) and n[i] > c.cushion_tol_mm:
                        continue
                    row = int(rows[i]) + (1 if n[i] > 0 else 0)
                    if row >= fc_row:
                        out.append((j, row, name))
        out.sort(key=lambda e: e[1])
        return out

    def _over_nose(self, p: np.ndarray, v: np.ndarray) -> bool:
        """Did a ball last seen at ``p`` running ``v`` (mm a row) leave over a
        cushion? Its straight path meets a cushion nose (its centre a radius
        from it) within ``over_rows`` steps, at least ``off_speed_mm`` a step and
        a radius clear of every pocket's jaw points (``TableSpec.jaw_points``):
        it cannot have gone into a pocket there (seed 439's cue ball, jumping
        the top cushion 144 mm from a corner, was taken as potted in it)."""
        c = self.config
        if float(np.linalg.norm(v)) < c.off_speed_mm:
            return False
        hits = [(u, a) for u, a in self._nose_hits(p, v) if -1.0 <= u <= c.over_rows]
        if not hits:
            return False
        u, a = min(hits)
        if abs(float(v[a])) < c.off_speed_mm:
            return False  # running along the cushion, not at it (seed 530's
            # red, into a far corner at 71 mm a row and 19 across)
        if u <= 0.0 and not self._on_nose(a, abs(float(p[1 - a]))):
            return False  # seen already beyond the nose's line, in a pocket's
            # opening (seed 907's yellow, its centre 7 mm beyond it and 68 mm
            # from the middle pocket's centre: it had crossed the line 79.7 mm
            # from it, grazing the jaw, and dropped)
        return self._on_nose(a, abs(float(p[1 - a] + u * v[1 - a])))

    def _nose_hits(self, p: np.ndarray, v: np.ndarray) -> list[tuple[float, int]]:
        """For each cushion nose line the straight path from ``p`` along ``v``
        (mm a row) runs at: the rows until the ball's centre is a radius from
        it, and its axis (0: an end cushion, 1: a side cushion)."""
        lims = self.spec.touch_limits
        return [((math.copysign(lim, v[a]) - p[a]) / v[a], a)
                for a, lim in enumerate(lims) if abs(v[a]) > 1e-9]

    def _on_nose(self, a: int, along: float) -> bool:
        """Does a ball's centre, a radius off the nose line of an end cushion
        (``a`` 0) or a side cushion (1), ``along`` mm from that cushion's
        middle, lie a radius clear of every pocket's jaws (on the cushion, not
        in a pocket's opening)?"""
        r = self.spec.ball_radius
        jaws = self.spec.jaw_points
        # the jaws on an end cushion (x = +-half length) and on a side cushion:
        # how far along the nose each lies from the middle of that cushion
        end = min(abs(y) for n, (_, y) in jaws.items() if n.endswith("_jaw_x"))
        side = min(abs(x) for n, (x, _) in jaws.items() if n.endswith("_jaw_y"))
        middle = max(abs(x) for n, (x, _) in jaws.items()
                     if n.startswith("middle"))
        if a == 0:  # an end cushion
            return along < end - r
        return middle + r < along < side - r

    def _aimed_pocket(self, p: np.ndarray, v: np.ndarray,
                      rows: float | None = None) -> str | None:
        """The pocket a ball last seen at ``p``, running ``v`` (mm a row) at
        least ``off_speed_mm``, was running into: its straight path leaves the
        bed through that pocket's opening, within ``rows`` rows (``lost_rows``
        by default), before it meets a cushion. None if it meets a cushion
        first (seed 530's black, blurred out of sight 440 mm from a far corner
        at 49 mm a row, into it, and never seen again, had been taken for
        lost)."""
        c = self.config
        hits = [(u, a) for u, a in self._nose_hits(p, v) if u >= 0.0]
        if float(np.linalg.norm(v)) < c.off_speed_mm or not hits:
            return None
        u, a = min(hits)
        if u > (c.lost_rows if rows is None else rows) or self._on_nose(
                a, abs(float(p[1 - a] + u * v[1 - a]))):
            return None
        return self._nearest_pocket(p + u * v)

    def _nearest_pocket(self, q: np.ndarray) -> str:
        """The pocket nearest ``q`` (table mm)."""
        return min(self._pockets, key=lambda n: float(
            np.linalg.norm(self._pockets[n] - q)))

    def _rolls_into_fall(self, p: np.ndarray, v: np.ndarray) -> bool:
        """Does a ball last seen at ``p`` beyond a cushion's line (in a
        corner's jaws), rolling ``v`` mm a row, roll on into that corner's
        fall (``TableSpec.corner_falls``) before it stops? Seed 987's white,
        lost at 4.5 mm a row 15 mm short of the top-right fall and held there
        hidden, was taken as at rest in the jaws: the in-off was missed."""
        speed = float(np.linalg.norm(v))
        hl, hw = self.spec.touch_limits
        if speed < 1e-9 or (abs(p[0]) <= hl and abs(p[1]) <= hw):
            return False
        run = speed**2 / (2.0 * self.config.roll_decel_mm_row2)
        return self.spec.rolls_into_fall((float(p[0]), float(p[1])),
                                         (float(v[0]), float(v[1])), run)

    def _pocket_gap(self, p: np.ndarray) -> float:
        """Distance (mm) from ``p`` to the nearest pocket."""
        return min(float(np.linalg.norm(q - p)) for q in self._pockets.values())

    def _in_mouth(self, p: np.ndarray) -> bool:
        """Is ``p`` in a pocket's mouth (within ``pocket_mm``), between its jaws?"""
        return self._pocket_gap(p) < self.config.pocket_mm

    def _near_pocket(self, p: np.ndarray) -> bool:
        return self._pocket_gap(p) < 90

    # -- rest -------------------------------------------------------------------

    def _rest(self, tr: StrokeTracks, gone: set[int]) -> tuple[
            tuple[tuple[str, tuple[float, float]], ...], tuple[tuple[str, str], ...]]:
        """Where each ball on the table rests at the stroke's end, and which
        touch: every column on the table in the last row but those of
        ``gone`` (found potted or off the table)."""
        last = tr.xy_mm[-1]
        cols = [j for j in range(len(tr.kinds))
                if not np.isnan(last[j, 0]) and j not in gone]
        order = sorted(cols, key=lambda j: (tr.kinds[j], float(last[j, 0])))
        positions = tuple((tr.kinds[j], (float(last[j, 0]), float(last[j, 1])))
                          for j in order)
        touching = []
        lim = 2 * self.spec.ball_radius + self.config.touch_mm
        for a_i, a in enumerate(order):
            for b in order[a_i + 1:]:
                if np.linalg.norm(last[a] - last[b]) <= lim:
                    touching.append((tr.kinds[a], tr.kinds[b]))
        return positions, tuple(touching)
