"""The streaming analyze pipeline: frames in, strokes, events and score out.

``Analysis`` joins the parts, one frame at a time and in bounded memory:
``BallFrame`` (from the vision pipeline's track rows, or from sim truth) ->
``StrokeSegmenter`` -> ``EventDetector`` -> a ``shot`` record -> the rules engine.
``CameraViews`` says, frame by frame, whether a calibrated view is on screen:
tracking pauses during camera cuts, and a bumped camera is calibrated again.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from baulk.calls import Call, CallBook
from calibration.table import OFFICIAL, TableSpec
from rules import MatchState, parse_record
from vision.events import EventConfig, EventDetector, StrokeEvents
from vision.strokes import (
    WHITE,
    BallFrame,
    Handling,
    Phase,
    SegmenterConfig,
    StrokeSegmenter,
    StrokeTracks,
)

if TYPE_CHECKING:
    from vision.pipeline import TrackRow
    from vision.track import BallTracker


@dataclass(frozen=True)
class StrokeResult:
    """One refereed stroke (compact: the tracks themselves are not kept).

    Attributes:
        events: Its events.
        record: The ``shot`` record fed to the rules engine.
        shot: The engine's view of it (``to_json()["shots"][-1]``), or None when
            the engine refused the record.
        error: Why the engine refused it, if it did.
        paths: ``(name, (K, 2) float64 table mm)`` paths of the balls that moved,
            at most ``PATH_POINTS`` points each.
        before: ``(name, (x, y))`` where the balls rested before the stroke, mm.
        start_confidence: Confidence in the strike frame, 0-1.
    """

    events: StrokeEvents
    record: dict[str, Any]
    shot: dict[str, Any] | None
    error: str | None = None
    paths: tuple[tuple[str, np.ndarray], ...] = ()
    before: tuple[tuple[str, tuple[float, float]], ...] = ()
    start_confidence: float = 1.0

    def to_json(self) -> dict[str, Any]:
        """JSON form for ``strokes.json``."""
        out = self.events.to_json()
        out["start_confidence"] = self.start_confidence
        out["referee"] = self.shot
        if self.error:
            out["error"] = self.error
        return out


PATH_POINTS = 80
"""Most points kept of one ball's path in a stroke (for the report)."""


def stroke_paths(tr: StrokeTracks) -> tuple[tuple[str, np.ndarray], ...]:
    """Paths of the balls that moved in a stroke, thinned to ``PATH_POINTS``."""
    s0 = tr.row(tr.start_frame)
    out = []
    for j, name in enumerate(tr.kinds):
        xy = tr.xy_mm[s0:, j]
        xy = xy[~np.isnan(xy[:, 0])]
        if len(xy) < 2 or np.ptp(xy, axis=0).max() < 5.0:
            continue
        step = max(1, math.ceil(len(xy) / PATH_POINTS))
        pts = np.vstack([xy[::step], xy[-1:]])
        out.append((name, pts))
    return tuple(out)


class Analysis:
    """Strokes, events and the score from a stream of ``BallFrame``s.

    Args:
        variant: Rules variant.
        players: Player names.
        spec: Table geometry.
        fps: Frames per second.
        reds: Reds in the rack (None: counted from the first frame, and again
            in each frame until the first stroke begins).

    Attributes:
        rack: The reds racked, given or seen in the rack (the most reds the
            tracker need follow), once the frame has begun; None when the
            footage began mid-frame.
        calls: The referee's calls (``baulk.calls``), in frame order.
        reds_gone: Track ids of reds taken as knocked in unseen while the
            tracker held them (``StrokeEvents.held_in``): left out of every
            frame after.
        white_gone: Track id of the cue ball the last stroke potted or sent
            off the table, while the tracker holds it unseen where it went:
            left out of the frames until it is seen again (None: none).
    """

    def __init__(self, variant: str = "wpbsa", players: tuple[str, ...] = (
            "Player 1", "Player 2"), spec: TableSpec = OFFICIAL, fps: float = 30.0,
            reds: int | None = None, calls: list[Call] | None = None) -> None:
        self.variant = variant
        self.players = players
        self.segmenter = StrokeSegmenter(SegmenterConfig(fps=fps), spec)
        self.detector = EventDetector(spec, EventConfig(
            roll_decel_mm_row2=self.segmenter.config.roll_decel))
        self.reds = reds
        self.rack: int | None = None
        self.log: list[dict[str, Any]] = []
        self.state: MatchState = MatchState.new(variant)
        self.strokes: list[StrokeResult] = []
        self.handling: list[Handling] = []
        self.calls = CallBook(calls or [])
        self.reds_gone: set[int] = set()
        self.white_gone: int | None = None
        # where each red stood before the first stroke (None: one has moved)
        self._reds_at: dict[int, np.ndarray] | None = {}

    @property
    def max_reds(self) -> int | None:
        """The most reds the tracker need follow: those racked, less those the
        referee has seen potted or forced off the table, which are not put back
        (Part 3, rule 3(g); seed 652's cue butt, read red, became a sixth red of
        five and kept a stroke open); None when the footage began mid-frame."""
        if self.rack is None:
            return None
        left = getattr(self.state.frame, "reds", None)
        return self.rack if left is None else min(self.rack, left)

    def steer(self, tracker: BallTracker) -> None:
        """Tell ``tracker`` what the refereeing knows, after each frame fed:
        the most reds left (``max_reds``) and whether the cue ball is in hand
        (``white_gone``: put down, it is back only in the D)."""
        if self.max_reds is not None:
            tracker.max_reds = self.max_reds
        tracker.in_hand = self.white_gone is not None

    def _start(self, bf: BallFrame) -> None:
        if self.variant == "golf":
            # no reds in snooker golf; the colours stand for the players' balls
            rec: dict[str, Any] = {"type": "frame_start", "variant": "golf",
                                   "players": list(self.players), "breaker": 0}
            self.log.append(rec)
            self.state = self.state.push(parse_record(rec))
            return
        reds = self.reds
        if reds is None:
            reds, self.rack = self._rack(bf.kinds, bf.xy_mm)
        else:
            self.rack = reds
        rec = {"type": "frame_start", "variant": self.variant,
               "players": list(self.players), "breaker": 0, "reds": reds}
        self.log.append(rec)
        self.state = self.state.push(parse_record(rec))

    def _rack(self, kinds: tuple[str, ...], xy_mm: np.ndarray
              ) -> tuple[int, int | None]:
        """Reds on the table (``rack_reds``) and, if they stand in a rack, in it
        (``racked``), from the balls' ``kinds`` and places ((N, 2) mm)."""
        red = np.array([k == "red" for k in kinds], bool)
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)[red]
        return _reds_and_rack(xy[~np.isnan(xy[:, 0])], self.detector.spec)

    def _recount(self, bf: BallFrame) -> None:
        """Until the first stroke begins: the reds counted again in each frame
        (the first may show fewer: seed 622's showed 4 of the 10 in the rack, 8
        by the strike), while none has moved from where it was first seen
        (``RED_MOVED_MM``): after that the pack has been struck, whether or not
        a stroke has been seen to begin (seed 2620's break, the cue ball
        hidden under the player at the strike: 10 reds, counted 15 from the
        spread pack, two reds by chance on the places of a fifth row)."""
        start = self.log[0]
        if self.reds is not None or "reds" not in start or self._reds_at is None:
            return
        red = [i for i, k in enumerate(bf.kinds) if k == "red"]
        for i in red:
            first = self._reds_at.setdefault(int(bf.ids[i]), bf.xy_mm[i].copy())
            if float(np.linalg.norm(bf.xy_mm[i] - first)) > RED_MOVED_MM:
                self._reds_at = None
                return
        reds, rack = self._rack(bf.kinds, bf.xy_mm)
        if rack is not None:
            self.rack = max(rack, self.rack or 0)
        if reds > start["reds"]:
            self.log[0] = start | {"reds": reds}
            self.state = MatchState.new(self.variant).push(parse_record(self.log[0]))

    def feed(self, bf: BallFrame) -> list[StrokeResult]:
        """Take one frame; return the strokes it completed."""
        keep = ~np.isin(bf.ids, list(self.reds_gone))
        if self.white_gone is not None:
            # in hand: it is no ball on the table until it is seen again, put
            # down (seed 946's, off the table by the side cushion and held
            # there, was put down in the D and struck under the player's arm:
            # the stroke was taken to start 52 frames early, when it would
            # have had to leave the cushion to be where it was first seen)
            here = bf.ids == self.white_gone
            if (bf.visible & here).any():
                self.white_gone = None
            else:
                keep &= ~here
        if not keep.all():
            bf = BallFrame(bf.frame, bf.ids[keep],
                           tuple(k for k, ok in zip(bf.kinds, keep, strict=True)
                                 if ok),
                           bf.xy_mm[keep], bf.visible[keep], bf.confidence[keep],
                           bf.view)
        if not self.log and bf.view and len(bf.kinds):
            self._start(bf)
        elif (self.log and bf.view and self.segmenter.phase == Phase.REST
              and self.segmenter.count == 0):
            self._recount(bf)
        return self._take(self.segmenter.push(bf))

    def shown(self, rows: list[TrackRow]) -> list[TrackRow]:
        """The rows of one frame's tracks to write and draw (``tracks.csv``,
        the overlay): those of reds taken as knocked in unseen (``reds_gone``),
        whose tracks the tracker still holds where they stood, left out."""
        return [r for r in rows if r.track_id not in self.reds_gone]

    def finish(self) -> list[StrokeResult]:
        """End of footage."""
        return self._take(self.segmenter.flush())

    def _take(self, items: list[StrokeTracks | Handling]) -> list[StrokeResult]:
        done = []
        for item in items:
            if isinstance(item, Handling):
                self.handling.append(item)
                continue
            ev = self.detector.detect(item)
            # a red knocked in unseen is held by the tracker where it stood;
            # reds are never put back (Part 3, rule 3(g)), so its track is
            # not a ball from now on (seed 908: the player's cue butt, read
            # red, took such a track in the jaws and "potted" it next stroke)
            self.reds_gone.update(
                tid for tid in ev.held_in
                if item.kinds[int(np.flatnonzero(item.ids == tid)[0])] == "red")
            w = item.column(WHITE)
            if w is not None and (WHITE in ev.off_table
                                  or WHITE in (b for b, _ in ev.potted)):
                self.white_gone = int(item.ids[w])
            if not ev.first_contact and not ev.potted and not ev.off_table and (
                    item.in_hand and _stayed_in_d(item, self.detector.spec)):
                # the cue ball being placed in the D, not a stroke
                continue
            done.append(self._referee(item, ev))
        return done

    def _referee(self, tracks: StrokeTracks, ev: StrokeEvents) -> StrokeResult:
        seen = ev.shot_record()
        called = self.calls.take(tracks.start_frame, tracks.end_frame)
        if not self.log:
            self._start(BallFrame(0, np.zeros(0), (), np.zeros((0, 2)),
                                  np.zeros(0), np.zeros(0)))
        error = None
        shot = None
        # impossible for the engine (a misread, or a call given to the wrong
        # stroke): keep the log valid without the calls, then the positions
        tries = [seen | called, seen,
                 {k: v for k, v in seen.items() if k != "positions"}]
        for rec in tries[0 if called else 1:]:
            try:
                self.state = self.state.push(parse_record(rec))
            except ValueError as err:
                error = error or str(err)
                continue
            shot = self.state.to_json()["shots"][-1]
            error = None
            break
        if error is None:
            self.log.append(rec)
        before = tuple(
            (name, (float(p[0]), float(p[1])))
            for name, p in zip(tracks.kinds, tracks.before_mm, strict=True)
            if not np.isnan(p[0]))
        result = StrokeResult(ev, rec, shot, error, stroke_paths(tracks), before,
                              tracks.start_confidence)
        self.strokes.append(result)
        return result


RACKS = {3: 6, 4: 10, 5: 15}
"""Rows of the triangle -> reds in the rack."""

RED_MOVED_MM = 10.0
"""A red this far from where it was first seen before the first stroke has
been struck: the reds are not counted again (``Analysis._recount``)."""

RACK_SEEN = 0.5
"""Least share of a rack's reds seen, linked by touching neighbours, for its depth
to count: seen from a low broadcast angle half the pack hides behind its front
(seed 500: 8 of 15, taken for 10 when 60% had to show)."""


LATTICE_MM = 18.0
"""Farthest a red may lie from its place in the rack's lattice to count as racked."""

OVERLAP_MM = LATTICE_MM / 2
"""Of two reds on the lattice nearer than a ball's diameter less this (centre to
centre), the one farther from its place is no red but one of the pack read twice
(seed 1948's, between two reds of row 4 of 10, 42 mm from each and 11 mm from a
place in row 5, made the rack 15)."""


def rack_reds(red_mm: np.ndarray, spec: TableSpec) -> int:
    """Reds in the rack (6, 10 or 15), from the reds seen at the start of a frame:
    ``racked`` when they stand in a rack; else (footage starting mid-frame) their
    count rounded up to a rack size.

    Args:
        red_mm: (N, 2) table mm of the reds seen.
        spec: Table geometry.
    """
    return _reds_and_rack(red_mm, spec)[0]


def _reds_and_rack(red_mm: np.ndarray, spec: TableSpec) -> tuple[int, int | None]:
    """``rack_reds`` and ``racked`` of the same reds, the rack read once."""
    red_mm = np.asarray(red_mm, dtype=np.float64).reshape(-1, 2)
    rack = racked(red_mm, spec)
    return rack or _rack_for(len(red_mm)), rack


def _rack_for(n: int) -> int:
    """The least rack size (6, 10 or 15) that holds ``n`` reds (15 at most)."""
    return min((r for r in RACKS.values() if r >= n), default=15)


def racked(red_mm: np.ndarray, spec: TableSpec) -> int | None:
    """Reds in the rack (6, 10 or 15) when the reds seen stand in one, else None.

    The rack is a triangle with its apex next to the pink spot: its depth (rows,
    one every sqrt(3) ball radii) tells 6, 10 and 15 reds apart even when a few
    false or missed reds spoil a plain count.

    Args:
        red_mm: (N, 2) table mm of the reds seen.
        spec: Table geometry.
    """
    red_mm = np.asarray(red_mm, dtype=np.float64).reshape(-1, 2)
    if len(red_mm) < 3:
        return None
    r = spec.ball_radius
    pink = np.asarray(spec.spots["pink"], dtype=np.float64)
    apex = pink + np.array([2 * r, 0.0])
    # the pack: reds linked to the ball nearest the apex by touching neighbours
    # (two rows back at most: from a low broadcast angle the front of the pack
    # may be missed; seed 602's first frame showed the 6 reds of rows 3 and 4
    # of 10, and the frame was started with 6)
    start = int(np.argmin(np.linalg.norm(red_mm - apex, axis=1)))
    if np.linalg.norm(red_mm[start] - apex) > math.hypot(2 * np.sqrt(3.0) * r,
                                                         2 * r) + r:
        return None
    # (linked across one missed between them, in a row or a whole row: seed
    # 2374's broadcast view showed rows 2 and 4 of 10, the third hidden
    # between them, and the frame was started with 6)
    pack = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        d = np.linalg.norm(red_mm - red_mm[i], axis=1)
        for j in np.flatnonzero(d < 4.2 * r):
            if int(j) not in pack:
                pack.add(int(j))
                todo.append(int(j))
    pts = red_mm[sorted(pack)]
    # only reds on the rack's lattice (rows sqrt(3) radii apart, two radii
    # apart in a row): a pack already struck is no rack (seed 592's, read a
    # frame after the break's contact, had a red pushed a row deeper)
    row = np.round((pts[:, 0] - apex[0]) / (np.sqrt(3.0) * r))
    across = (pts[:, 1] / r + row) / 2
    on = (np.abs(pts[:, 0] - apex[0] - row * np.sqrt(3.0) * r) < LATTICE_MM) & (
        np.abs(across - np.round(across)) * 2 * r < LATTICE_MM) & (
        np.round(across) >= 0) & (np.round(across) <= row)
    pts = pts[on]
    if not len(pts):
        return None
    place = np.column_stack([apex[0] + row[on] * np.sqrt(3.0) * r,
                             (2 * np.round(across[on]) - row[on]) * r])
    pts = _apart(pts, np.linalg.norm(pts - place, axis=1), 2 * r - OVERLAP_MM)
    # from the apex's place, not the first red seen: the apex red may be missed
    depth = float(pts[:, 0].max() - apex[0])
    rows = round(depth / (np.sqrt(3.0) * r)) + 1
    if rows not in RACKS or len(pts) < RACK_SEEN * RACKS[rows]:
        return None
    return RACKS[rows]


def _apart(pts: np.ndarray, off: np.ndarray, apart_mm: float) -> np.ndarray:
    """``pts`` ((N, 2) mm) less each nearer than ``apart_mm`` to one nearer its
    place (``off``: (N,) mm from it)."""
    kept: list[int] = []
    for i in np.argsort(off, kind="stable"):
        if all(np.linalg.norm(pts[i] - pts[k]) >= apart_mm for k in kept):
            kept.append(int(i))
    return pts[sorted(kept)]


def _stayed_in_d(tr: StrokeTracks, spec: TableSpec) -> bool:
    w = tr.column("white")
    if w is None:
        return True
    pts = tr.xy_mm[:, w]
    pts = pts[~np.isnan(pts[:, 0])]
    return all(spec.in_d((float(x), float(y)), 20.0) for x, y in pts)


def frames_from_truth(folder: Path | str, hold_hidden: bool = True,
                      min_visible: float = 0.3) -> Iterator[BallFrame]:
    """``BallFrame``s from a sim clip's truth (``frames.npz``), frame by frame.

    Frames of a cut to another camera (``truth.json`` ``cuts``) have no view.

    Args:
        folder: The clip folder.
        hold_hidden: Hold a ball that is less than ``min_visible`` visible where it
            was last seen, as a tracker does (else give its true place).
        min_visible: Visible fraction under which a ball counts as hidden.
    """
    from sim.truth import load_clip

    clip = load_clip(folder)
    names = clip.meta["names"]
    ids = np.arange(1, len(names) + 1)
    last = np.full((len(names), 2), np.nan)
    cut = {f for a, b in clip.meta.get("cuts", []) for f in range(a, b + 1)}
    for f in range(clip.positions_mm.shape[0]):
        if f in cut:
            yield BallFrame.no_view(f)
            continue
        xy = clip.positions_mm[f, :, :2].astype(np.float64)
        on = ~np.isnan(xy[:, 0])
        vis = clip.visible[f] >= min_visible
        if hold_hidden:
            xy = np.where((vis & on)[:, None], xy, last)
            last = np.where((vis & on)[:, None], clip.positions_mm[f, :, :2], last)
            last[~on] = np.nan
            on = on & ~np.isnan(xy[:, 0])
        keep = np.flatnonzero(on)
        yield BallFrame(f, ids[keep], tuple(names[i] for i in keep), xy[keep],
                        vis[keep], np.ones(len(keep)))


def frame_from_rows(rows: list[Any], frame: int, view: bool = True) -> BallFrame:
    """A ``BallFrame`` from ``vision.pipeline.TrackRow``s of one frame."""
    if not view:
        return BallFrame.no_view(frame)
    return BallFrame(
        frame, np.array([r.track_id for r in rows], np.int64),
        tuple(r.kind for r in rows),
        np.array([[r.x_mm, r.y_mm] for r in rows], np.float64).reshape(-1, 2),
        np.array([r.visible for r in rows], bool),
        np.array([r.confidence for r in rows], np.float32),
    )


class ViewCheck:
    """Is the calibrated view on screen? A cheap per-frame test for cuts and bumps.

    Samples the image at points just inside the cushion noses (cloth) and just
    outside the playing area (cushion and rail), and compares them with the first
    frame's colours at the same points. A cut to another camera changes most of
    them in one ring or the other; a player leaning over the table changes few.

    Args:
        cal: The calibration.
        first: The first frame (BGR), taken as showing the calibrated view.
        threshold: Fraction of the points of each ring that must match.
    """

    def __init__(self, cal: Any, first: np.ndarray, threshold: float = 0.6) -> None:
        spec = cal.spec
        hl, hw = spec.half_length, spec.half_width
        pts = []
        ring = []
        for k, inset in enumerate((-60.0, 40.0)):
            for t in np.linspace(-0.9, 0.9, 40):
                pts += [(t * hl, hw - inset), (t * hl, -hw + inset)]
            for t in np.linspace(-0.8, 0.8, 20):
                pts += [(hl - inset, t * hw), (-hl + inset, t * hw)]
            ring += [k] * (len(pts) - len(ring))
        px = np.asarray(cal.table_to_image(np.array(pts)))
        h, w = first.shape[:2]
        ok = np.isfinite(px).all(axis=1)
        px = np.round(np.where(ok[:, None], px, 0)).astype(int)
        ok &= (px[:, 0] >= 2) & (px[:, 0] < w - 2)
        ok &= (px[:, 1] >= 2) & (px[:, 1] < h - 2)
        self._px = px[ok]
        self._outside = np.array(ring)[ok] == 0
        self._ref = self._sample(first)
        self._shape = first.shape[:2]
        self.threshold = threshold
        self.last_fraction = 1.0

    def _sample(self, image: np.ndarray) -> np.ndarray:
        x, y = self._px[:, 0], self._px[:, 1]
        acc = np.zeros((len(x), 3), np.float32)
        for dx, dy in ((0, 0), (-2, 0), (2, 0), (0, -2), (0, 2)):
            acc += image[y + dy, x + dx].astype(np.float32)
        return acc / 5

    def __call__(self, image: np.ndarray) -> bool:
        """True when ``image`` shows the calibrated view."""
        if len(self._px) < 20 or image.shape[:2] != self._shape:
            return False
        same = np.abs(self._sample(image) - self._ref).max(axis=1) < 40
        # each ring on its own: a close-up of the cloth matches much of the
        # cloth just inside the cushions, not the rails just outside them
        self.last_fraction = min(float(np.mean(same[self._outside])),
                                 float(np.mean(same[~self._outside])))
        return self.last_fraction >= self.threshold


@dataclass(frozen=True)
class ViewChange:
    """The calibration in use changed at a frame (``CameraViews``).

    Attributes:
        frame: Frame index (from 0) from which the calibration applies.
        view: Index of the view in ``CameraViews.calibrations``.
        recalibrated: True when the view is new (found by calibrating again),
            False when an earlier view came back.
        message: One line saying what happened.
    """

    frame: int
    view: int
    recalibrated: bool
    message: str

    def to_json(self) -> dict[str, Any]:
        """The change as a JSON object."""
        return {"frame": self.frame, "view": self.view,
                "recalibrated": self.recalibrated, "message": self.message}


class CameraViews:
    """Which calibrated view, if any, each frame shows.

    The first view is the given calibration. Every frame is compared with the
    view's look (``ViewCheck``: a cut to another camera fails it), and every
    ``check_s`` seconds the frame is registered on the view's first frame
    (``_camera_shift``): when that moves the table's corners (the camera was
    bumped), twice in a row, the frame is calibrated again
    (``calibration.auto.auto_calibrate``) and kept as a new view. The table's
    outline, found again, decides only where the frames have too few keypoints in
    common: a ball against a cushion pulls the outline off (seed 659's black,
    near a corner, read as a moved camera three times in a clip whose camera
    never moved). When a frame shows no known view, the other views are
    tried (a broadcast cutting back to a camera seen before), and after
    ``retry_s`` seconds the outline decides: the same table outline (the light
    changed) keeps the view, a moved one is calibrated again, none (a close-up, a
    replay) stays "no view".

    Args:
        cal: The calibration of the first frame.
        first: The first frame (BGR).
        fps: Frames per second.
        retry_s: Seconds off every known view between attempts to recalibrate.
        check_s: Seconds between checks for a bumped camera while a view is on
            screen.
        tol_px: Corner shift (px) taken as a moved camera.
        max_views: Most views kept.
    """

    def __init__(self, cal: Any, first: np.ndarray, fps: float,
                 retry_s: float = 1.0, check_s: float = 3.0, tol_px: float = 6.0,
                 max_views: int = 4) -> None:
        self.calibrations: list[Any] = [cal]
        self._checks = [ViewCheck(cal, first)]
        self._outlines = [_outline_corners(first)]
        self._keypoints = [_keypoints(first)]
        self.current = 0
        self.changes: list[ViewChange] = []
        self._retry = max(1, round(retry_s * fps))
        self._every = max(1, round(check_s * fps))
        self._confirm = max(1, round(0.25 * check_s * fps))
        self.tol_px = tol_px
        self.max_views = max_views
        self._off = 0
        self._next_check = self._every
        self._suspect = False

    @property
    def calibration(self) -> Any:
        """The calibration of the current view."""
        return self.calibrations[self.current]

    def __call__(self, image: np.ndarray, frame: int) -> tuple[bool, Any | None]:
        """Whether ``image`` shows a calibrated view.

        Returns:
            ``(view, new)``: ``new`` is the calibration to use from this frame on
            when it changed (else None).
        """
        if self._checks[self.current](image):
            self._off = 0
            self._next_check -= 1
            if self._next_check > 0:
                return True, None
            if not self._bumped(image):
                self._suspect = False
                self._next_check = self._every
                return True, None
            if not self._suspect:  # look again shortly before believing it
                self._suspect = True
                self._next_check = self._confirm
                return True, None
            self._suspect = False
            self._next_check = self._every
            new = self._recalibrate(image, _outline_corners(image), frame,
                                    "the camera moved")
            return True, new
        for k, check in enumerate(self._checks):
            if k != self.current and check(image):
                self._switch(k, frame, False, f"view {k} back on screen")
                return True, self.calibration
        self._off += 1
        if self._off % self._retry:
            return False, None
        found = _outline_corners(image)
        moved = self._moved(found)
        if moved is None:
            return False, None
        if not moved:  # the same outline: the light changed
            self._checks[self.current] = ViewCheck(self.calibration, image)
            self._keypoints[self.current] = _keypoints(image)
            self._off = 0
            return True, None
        new = self._recalibrate(image, found, frame, "a new view")
        return new is not None, new

    def _bumped(self, image: np.ndarray) -> bool:
        """Whether the camera moved off the current view by more than
        ``tol_px`` (see the class docstring)."""
        at = self._outlines[self.current]
        if at is None:
            h, w = image.shape[:2]
            at = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        shift = _camera_shift(self._keypoints[self.current], image, at)
        if shift is None:
            return self._moved(_outline_corners(image)) is True
        return shift > self.tol_px

    def _moved(self, found: np.ndarray | None) -> bool | None:
        """Whether the table's outline (corners ``found`` in a frame) moved from
        the view's (None: not found in one of them)."""
        if found is None or self._outlines[self.current] is None:
            return None
        return not self._same_outline(found, self.current)

    def _same_outline(self, found: np.ndarray | None, k: int) -> bool:
        ref = self._outlines[k]
        if ref is None or found is None:
            return False
        dist = np.linalg.norm(ref[:, None, :] - found[None], axis=2).min(axis=1)
        return bool(np.median(dist) <= self.tol_px)

    def _recalibrate(self, image: np.ndarray, found: np.ndarray | None, frame: int,
                     why: str) -> Any | None:
        """The view ``image`` (outline corners ``found``) shows: a known one with
        that outline, else a new one calibrated from it; None when that fails."""
        from calibration.auto import auto_calibrate
        from calibration.mapping import CalibrationError

        for k in range(len(self.calibrations)):
            if k != self.current and self._same_outline(found, k):
                self._switch(k, frame, False, f"view {k} back on screen")
                return self.calibration
        if len(self.calibrations) >= self.max_views:
            return None
        try:
            cal = auto_calibrate(image, self.calibration.table)
        except CalibrationError:
            return None
        self.calibrations.append(cal)
        self._checks.append(ViewCheck(cal, image))
        self._outlines.append(found)
        self._keypoints.append(_keypoints(image))
        self._switch(len(self.calibrations) - 1, frame, True,
                     f"{why}: calibrated again")
        return cal

    def _switch(self, k: int, frame: int, recalibrated: bool, message: str) -> None:
        self.current = k
        self._off = 0
        self.changes.append(ViewChange(frame, k, recalibrated, message))


REGISTER_WIDTH = 960
"""Width (px) frames are shrunk to before their keypoints are found."""

REGISTER_MATCHES = 30
"""Fewest keypoints two frames must share to be registered on each other."""


@dataclass(frozen=True)
class Keypoints:
    """A frame's ORB keypoints, for registering later frames on it.

    Attributes:
        xy_px: (N, 2) float32, px of the full frame.
        descriptors: (N, 32) uint8 ORB descriptors (None when N is 0).
    """

    xy_px: np.ndarray
    descriptors: np.ndarray | None


def _keypoints(image: np.ndarray) -> Keypoints:
    """The keypoints of a BGR frame."""
    import cv2

    scale = REGISTER_WIDTH / image.shape[1]
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found, descriptors = cv2.ORB_create(1000).detectAndCompute(
        cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), None)
    xy = np.array([k.pt for k in found], np.float32).reshape(-1, 2) / scale
    return Keypoints(xy, descriptors)


def _camera_shift(ref: Keypoints, image: np.ndarray, at_px: np.ndarray
                  ) -> float | None:
    """How far (px) the camera's motion since the frame of ``ref`` moved the
    points ``at_px`` ((K, 2) px): the motion (shift, turn and zoom) that carries
    most keypoints shared with ``image`` onto their places there (balls and
    players, moving, are outliers). None when too few keypoints are shared."""
    import cv2

    cur = _keypoints(image)
    if ref.descriptors is None or cur.descriptors is None:
        return None
    matches = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True).match(
        ref.descriptors, cur.descriptors)
    if len(matches) < REGISTER_MATCHES:
        return None
    src = ref.xy_px[[m.queryIdx for m in matches]]
    dst = cur.xy_px[[m.trainIdx for m in matches]]
    motion, inliers = cv2.estimateAffinePartial2D(
        src, dst, method=cv2.RANSAC, ransacReprojThreshold=4.0)
    if motion is None or int(inliers.sum()) < REGISTER_MATCHES:
        return None
    at = np.asarray(at_px, np.float64)
    return float(np.linalg.norm(at @ motion[:, :2].T + motion[:, 2] - at,
                                axis=1).max())


def _outline_corners(image: np.ndarray) -> np.ndarray | None:
    """(4, 2) px corners of the table's outline in ``image``, or None."""
    from calibration.auto import find_outline
    from calibration.mapping import CalibrationError

    try:
        return find_outline(image).corners_px
    except CalibrationError:
        return None


def fps_of(capture: Any) -> float:
    """Frames per second of an OpenCV capture (30 when unknown)."""
    import cv2

    fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
    return fps if math.isfinite(fps) and 1.0 <= fps <= 480.0 else 30.0
