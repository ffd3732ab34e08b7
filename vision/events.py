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
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np

from calibration.table import OFFICIAL, Pocket, TableSpec
from vision.strokes import WHITE, StrokeTracks


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
    BALL_LOST = "ball lost from sight away from the pockets"


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
        moved_mm: Displacement from rest that shows a ball was set moving.
        pocket_mm: A ball vanishing within this of a pocket (extrapolated) is potted.
        cushion_tol_mm: Slack on the R distance to a cushion nose at a bounce.
        touch_mm: Gap under which two resting balls count as touching.
        same_time_mm: Two contacts this close along the cue ball's path are
            simultaneous.
    """

    contact_tol_mm: float = 6.0
    moved_mm: float = 2.0
    pocket_mm: float = 160.0
    cushion_tol_mm: float = 18.0
    touch_mm: float = 1.5
    same_time_mm: float = 3.0


def _first_row(a: np.ndarray) -> int | None:
    hits = np.flatnonzero(a)
    return int(hits[0]) if len(hits) else None


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
        fc, fc_row, fc_conf, why = self._first_contact(tr, w, s0)
        if why is not None:
            unknown.append(why)
        if tr.interrupted:
            unknown.append(Unknown.CAMERA_CUT)
        if fc_row is not None or why is not None:
            events.append(Event(EventKind.FIRST_CONTACT,
                                int(tr.frames[fc_row]) if fc_row is not None
                                else tr.start_frame,
                                fc, confidence=fc_conf, unknown=why))
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
        positions, touching = self._rest(tr)
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
        )

    # -- first contact --------------------------------------------------------

    def _onsets(self, tr: StrokeTracks, s0: int) -> np.ndarray:
        """(N,) row at which each ball first left its pre-stroke place (inf: never)."""
        out = np.full(tr.xy_mm.shape[1], np.inf)
        for j in range(tr.xy_mm.shape[1]):
            ref = tr.before_mm[j]
            if np.isnan(ref[0]):
                continue
            xy = tr.xy_mm[s0:, j]
            d = np.linalg.norm(xy - ref, axis=1)
            moved = (d > self.config.moved_mm) & tr.visible[s0:, j]
            moved |= np.isnan(xy[:, 0])  # vanished
            r = _first_row(moved)
            if r is not None:
                out[j] = s0 + r
        return out

    def _first_contact(
        self, tr: StrokeTracks, w: int | None, s0: int,
    ) -> tuple[tuple[str, ...], int | None, float, Unknown | None]:
        """(names, row, confidence, reason if unknown)."""
        if w is None:
            return (), None, 0.0, Unknown.NO_CUE_BALL
        c = self.config
        r2 = 2 * self.spec.ball_radius
        onset = self._onsets(tr, s0)
        onset[w] = np.inf
        objs = [j for j in range(tr.xy_mm.shape[1]) if j != w
                and not np.isnan(tr.before_mm[j, 0])]
        if not objs or not np.isfinite(onset[objs]).any():
            return (), None, 0.95, None
        first_move = float(np.min(onset[objs]))
        xy = tr.xy_mm[:, w]
        vis = tr.visible[:, w] & ~np.isnan(xy[:, 0])
        anchors = tr.before_mm[objs]
        hits: list[tuple[float, int]] = []  # (path time in rows, column)
        last_known: int | None = s0
        t_len = len(tr.frames)
        for k in range(s0, min(t_len - 1, int(first_move) + 1)):
            if not vis[k + 1] or last_known is None:
                continue
            a = xy[last_known]
            b = xy[k + 1]
            seg = b - a
            span = (k + 1) - last_known
            # straight-line extrapolation of the approach, before any deflection
            prev = last_known - 1
            ray = None
            if prev >= s0 and vis[prev] and span == 1:
                ray = (xy[last_known] - xy[prev])
            for idx, j in enumerate(objs):
                if onset[j] < last_known:
                    continue
                u = None
                if ray is not None:
                    u = _ray_hit(a, ray, anchors[idx], r2 + 0.5)
                if u is None:
                    u = _ray_hit(a, seg, anchors[idx], r2 + c.contact_tol_mm)
                if u is not None and onset[j] <= last_known + span * u + 2.5:
                    hits.append((last_known + span * u, j))
            if hits:
                break
            last_known = k + 1
        hidden = not vis[s0:int(first_move) + 1].all() if np.isfinite(first_move) \
            else False
        if not hits:
            # Not seen: the first ball to move is the best guess.
            movers = [j for j in objs if onset[j] == first_move]
            names = tuple(sorted({tr.kinds[j] for j in movers}))
            if len(movers) == 1:
                return names, int(first_move), 0.5, (
                    Unknown.HIDDEN_AT_CONTACT if hidden else None)
            return names[:1], int(first_move), 0.3, Unknown.AMBIGUOUS_CONTACT
        hits.sort()
        t0 = hits[0][0]
        speed = float(np.linalg.norm(xy[min(int(t0) + 1, t_len - 1)] - xy[int(t0)]))
        same = c.same_time_mm / max(speed, 1.0)
        cols = [j for t, j in hits if t - t0 <= same]
        names = tuple(dict.fromkeys(tr.kinds[j] for j in cols))
        row = math.ceil(t0 - 1e-9)
        conf = 0.95 if not hidden else 0.6
        return names, row, conf, (Unknown.HIDDEN_AT_CONTACT if hidden and conf < 0.7
                                  and len(hits) > 1 else None)

    # -- pots and balls off the table ---------------------------------------

    def _vanished(self, tr: StrokeTracks, s0: int) -> list[
            tuple[int, int, EventKind, str | None, float, Unknown | None]]:
        """Balls gone by the end: (column, row, kind, pocket, confidence, unknown)."""
        c = self.config
        out = []
        t_len = len(tr.frames)
        hl, hw = self.spec.half_length, self.spec.half_width
        for j in range(tr.xy_mm.shape[1]):
            xy = tr.xy_mm[:, j]
            present = ~np.isnan(xy[:, 0])
            was = not np.isnan(tr.before_mm[j, 0]) or present[s0:].any()
            if not was:
                continue
            vis = tr.visible[:, j] & present
            seen = np.flatnonzero(vis)
            if present[-1] and (not len(seen) or seen[-1] >= t_len - 3):
                continue
            if present[-1]:
                # held hidden to the end: off the table only if it left moving
                # over a cushion; otherwise it is hidden at rest (not an event)
                k = int(seen[-1]) if len(seen) else None
                if k is None or k < s0 or k == 0 or not vis[k - 1]:
                    continue
                v = xy[k] - xy[k - 1]
                if np.linalg.norm(v) < 5.0:
                    continue
            seen = seen[seen >= s0 - 1]
            if len(seen) == 0:
                if not tr.interrupted:
                    continue
                out.append((j, s0, EventKind.POT, None, 0.4, Unknown.CAMERA_CUT))
                continue
            k = int(seen[-1])
            p = xy[k]
            v = xy[k] - xy[k - 1] if k > 0 and vis[k - 1] else np.zeros(2)
            ahead = p + 1.5 * v
            gone_row = min(k + 1, t_len - 1)
            name, dist = min(((n, float(min(np.linalg.norm(q - p),
                                             np.linalg.norm(q - ahead))))
                              for n, q in self._pockets.items()),
                             key=lambda x: x[1])
            out_of_bed = abs(ahead[0]) > hl or abs(ahead[1]) > hw
            if dist <= c.pocket_mm:
                conf = 0.95 if dist < c.pocket_mm * 0.7 else 0.7
                out.append((j, gone_row, EventKind.POT, name, conf, None))
            elif out_of_bed or (abs(p[0]) > hl - 120 or abs(p[1]) > hw - 120):
                out.append((j, gone_row, EventKind.OFF_TABLE, None, 0.8, None))
            elif tr.interrupted:
                out.append((j, gone_row, EventKind.POT, None, 0.4,
                            Unknown.CAMERA_CUT))
            elif (not present[-1] and dist < 2 * c.pocket_mm
                  and float(v @ (self._pockets[name] - p)) > 0.0):
                # vanished for good heading into a pocket's mouth, out of sight
                out.append((j, gone_row, EventKind.POT, Pocket(name).value, 0.3,
                            Unknown.POCKET_UNSEEN))
            else:
                # lost mid-table (held where last seen, or gone without a
                # pocket near): no pot, only an honest "unknown"
                out.append((j, gone_row, EventKind.LOST, None, 0.3,
                            Unknown.BALL_LOST))
        out.sort(key=lambda e: e[1])
        return out

    # -- cushions ---------------------------------------------------------------

    def _cushions(self, tr: StrokeTracks, fc_row: int) -> list[tuple[int, int, str]]:
        """(column, row, cushion) bounces at or after the first contact."""
        c = self.config
        r = self.spec.ball_radius
        hl, hw = self.spec.half_length - r, self.spec.half_width - r
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
                    if not (vn[i - 1] > 0.5 and vn[i] < -0.5):
                        continue
                    step = max(abs(vn[i - 1]), abs(vn[i]))
                    if n[i] > step + c.cushion_tol_mm:
                        continue
                    # in a pocket mouth the jaws, not the cushion, turn it back
                    if self._near_pocket(p[i]) and n[i] > c.cushion_tol_mm:
                        continue
                    row = int(rows[i]) if n[i] <= n[i + 1] else int(rows[i + 1])
                    row = int(rows[i]) + (1 if n[i] > 0 else 0)
                    if row >= fc_row:
                        out.append((j, row, name))
        out.sort(key=lambda e: e[1])
        return out

    def _near_pocket(self, p: np.ndarray) -> bool:
        return min(float(np.linalg.norm(q - p)) for q in self._pockets.values()) < 90

    # -- rest -------------------------------------------------------------------

    def _rest(self, tr: StrokeTracks) -> tuple[
            tuple[tuple[str, tuple[float, float]], ...], tuple[tuple[str, str], ...]]:
        last = tr.xy_mm[-1]
        cols = [j for j in range(len(tr.kinds)) if not np.isnan(last[j, 0])]
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
