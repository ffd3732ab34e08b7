"""Cutting per-frame ball tracks into strokes, as a stream.

A stroke starts when the cue strikes the cue ball and ends when every ball is at
rest. Between strokes the balls may still change: the referee re-spots a colour,
a player places the cue ball in the D, a ball is picked up and cleaned, or the
camera cuts away (broadcast) or is bumped. Those are reported as ``Handling``
notes, not strokes: a stroke needs the cue ball to move *continuously* away from
where it rested (or, with the cue ball out of sight, an object ball to roll away
from its place), whereas handled balls vanish under a hand and reappear at rest.

``StrokeSegmenter.push`` takes one ``BallFrame`` at a time and returns what became
final with it. It keeps a pre-roll of ``preroll`` frames while the balls rest and
the frames of the current stroke (capped at ``max_stroke_s``): memory is bounded,
and the look-ahead is the ``rest_s`` of stillness that closes a stroke.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

import numpy as np

from calibration.table import OFFICIAL, TableSpec

WHITE = "white"


@dataclass(frozen=True, eq=False)
class BallFrame:
    """The balls of one frame (N of them), struct of arrays.

    Attributes:
        frame: Frame index, 0-based.
        ids: (N,) int64 track ids (unique within a frame).
        kinds: (N,) ball names (``white``, ``red``, colours).
        xy_mm: (N, 2) float64 ball centres, table frame, mm.
        visible: (N,) bool: seen in this frame (False: held where last seen).
        confidence: (N,) float32 identity confidence, 0-1.
        view: The calibrated view is on screen (False during a camera cut/bump).
    """

    frame: int
    ids: np.ndarray
    kinds: tuple[str, ...]
    xy_mm: np.ndarray
    visible: np.ndarray
    confidence: np.ndarray
    view: bool = True

    def __post_init__(self) -> None:
        n = len(self.kinds)
        ids = np.asarray(self.ids, dtype=np.int64).reshape(n)
        xy = np.asarray(self.xy_mm, dtype=np.float64).reshape(n, 2)
        vis = np.asarray(self.visible, dtype=bool).reshape(n)
        conf = np.asarray(self.confidence, dtype=np.float32).reshape(n)
        for name, value in (("ids", ids), ("xy_mm", xy), ("visible", vis),
                            ("confidence", conf)):
            value.setflags(write=False)
            object.__setattr__(self, name, value)

    @staticmethod
    def no_view(frame: int) -> BallFrame:
        """A frame where the calibrated view is not on screen."""
        return BallFrame(frame, np.zeros(0), (), np.zeros((0, 2)), np.zeros(0),
                         np.zeros(0), view=False)

    @cached_property
    def lookup(self) -> dict[int, int]:
        """Row of each track id."""
        return {int(t): j for j, t in enumerate(self.ids)}

    def white(self) -> int | None:
        """Row of the cue ball (the most confident visible one), or None."""
        rows = [i for i, k in enumerate(self.kinds) if k == WHITE]
        if not rows:
            return None
        return max(rows, key=lambda i: (bool(self.visible[i]), self.confidence[i]))


class HandlingKind(StrEnum):
    """What happened to the balls between strokes."""

    RESPOT = "respot"
    CUE_BALL_PLACED = "cue_ball_placed"
    CLEANED = "cleaned"
    MOVED = "moved"
    CAMERA_CUT = "camera_cut"
    VIEW_BACK = "view_back"


@dataclass(frozen=True)
class Handling:
    """A change between strokes that is not a stroke.

    Attributes:
        kind: What happened.
        frame: Frame index where it was settled.
        ball: The ball concerned (``""`` for camera cuts).
        xy_mm: Where the ball now rests (table mm), or None.
    """

    kind: HandlingKind
    frame: int
    ball: str = ""
    xy_mm: tuple[float, float] | None = None


@dataclass(frozen=True, eq=False)
class StrokeTracks:
    """The tracks of one stroke (T frames, N balls), struct of arrays.

    Attributes:
        index: Stroke number in the clip, from 0.
        frames: (T,) int64 frame indices, consecutive, from a little before the
            strike to the end of the closing rest window.
        ids: (N,) int64 track ids.
        kinds: (N,) ball names.
        xy_mm: (T, N, 2) float64 table mm; NaN where the ball is not on the table
            (potted, off, or not yet there).
        visible: (T, N) bool: seen in that frame.
        before_mm: (N, 2) float64 where each ball rested before the stroke (NaN
            when it was not on the table).
        start_frame: Frame of the strike (the last frame before the cue ball moved).
        end_frame: First frame with every ball at rest.
        start_confidence: 0-1; lower when the cue ball was hidden at the strike.
        interrupted: The calibrated view was lost during the stroke.
        in_hand: The cue ball was in hand (placed in the D) before the stroke.
        confidence: (T, N) float32 identity confidence of each sighting, 0-1
            (``BallFrame.confidence``; 0 where unseen); None: every one sure.
    """

    index: int
    frames: np.ndarray
    ids: np.ndarray
    kinds: tuple[str, ...]
    xy_mm: np.ndarray
    visible: np.ndarray
    before_mm: np.ndarray
    start_frame: int
    end_frame: int
    start_confidence: float = 1.0
    interrupted: bool = False
    in_hand: bool = False
    confidence: np.ndarray | None = None

    def row(self, frame: int) -> int:
        """Index into the time axis of a frame number."""
        return int(frame - self.frames[0])

    def column(self, kind: str) -> int | None:
        """Column of the first ball of ``kind`` (the cue ball for ``white``)."""
        cols = [j for j, k in enumerate(self.kinds) if k == kind]
        if not cols:
            return None
        return max(cols, key=lambda j: int(self.visible[:, j].sum()))


@dataclass(frozen=True)
class SegmenterConfig:
    """Thresholds of the stroke segmenter (mm, frames at ``fps``).

    Attributes:
        fps: Frames per second of the footage.
        start_mm: Cue-ball displacement from rest that may begin a stroke.
        onset_mm: Displacement that counts as "moved" when finding the strike frame.
        still_mm: Largest drift of a ball over the rest window that is "at rest".
        moving_mm: Per-frame step that shows the cue ball is still rolling.
        rest_s: Stillness that ends a stroke (the look-ahead).
        confirm: Frames after a candidate start that decide stroke or handling.
        preroll: Frames kept while at rest, to find the strike after the fact
            (the break's cue ball, blurred, may be lost for a second or more).
        max_stroke_s: A stroke longer than this is closed by force.
        view_back: Frames the view must be back before tracking resumes.
        lost_moving_s: A ball lost while rolling keeps the stroke open this long
            (unless seen again at rest).
        jaws_wait_s: One last seen rolling in a corner pocket's jaws, this long
            after that sighting (``_gone_into_jaws``), unless anything else
            moves: as long as the tracker gives a ball found potted its track
            back (``unpot_frames``, 90 frames at 30 fps).
        cut_rest_s: Stillness before a camera cut that ends a stroke (shorter
            than ``rest_s``: nothing after the cut can be seen).
        held_frames: A ball unseen for more than this many frames (held where
            it was last seen: lost, or hidden) does not keep a stroke open;
            one unseen for fewer (a blink of the detector) does.
        roll_decel_mm_s2: Deceleration of a ball rolling on the cloth (rolling
            resistance times g: about 0.01 g on a snooker cloth).
        slide_decel_mm_s2: Deceleration of a ball sliding on the cloth, as a
            struck cue ball does until it rolls (sliding friction times g:
            about 0.2 g on a cloth; the simulator's ball-cloth friction,
            pooltool's generic snooker value of 0.5, is not followed).
        cushion_keep: Least share of its speed a ball keeps off a cushion (its
            rebound, 0.5-0.7 of it on the simulator's cushions, slowest head on).
        stop_window: Frames before a ball's last clear motion whose speed
            predicts where it stops.
        settle_sightings: Sightings in a row at a ball's resting place that
            show it has stopped there (``_settled``).
        beside_mm: A ball at rest this near the cue ball (centre to centre)
            that sets off just before the cue ball is seen to move was struck
            by it: the stroke starts then (``_set_off_beside``).
        reach_mm: How much farther, for each frame the cue ball was unseen.
        beside_frames: How long before the cue ball was seen to move.
        dead_stop_frames: The cue ball seen still off its place this soon
            after it was last seen there, farther than ``leap_mm``, beside a
            ball that sets off, was struck (``_stopped_dead``), not set down.
        leap_mm: See ``dead_stop_frames``.
        put_back_mm: A ball that vanished during a stroke and came back this
            far from where it was last seen was put back by hand
            (``StrokeSegmenter._put_back``).
        stir_mm: A ball whose place a moving ball came this near (centre to
            centre: touching, and some) may have been set moving by it
            (``_Stirring``).
    """

    fps: float = 30.0
    start_mm: float = 8.0
    onset_mm: float = 1.5
    still_mm: float = 3.0
    moving_mm: float = 2.0
    rest_s: float = 0.5
    confirm: int = 3
    preroll: int = 60
    max_stroke_s: float = 60.0
    view_back: int = 5
    held_frames: int = 5
    cut_rest_s: float = 0.17
    lost_moving_s: float = 1.0
    jaws_wait_s: float = 3.0
    roll_decel_mm_s2: float = 98.0
    slide_decel_mm_s2: float = 1962.0
    cushion_keep: float = 0.5
    stop_window: int = 25
    settle_sightings: int = 5
    beside_mm: float = 115.0
    reach_mm: float = 100.0
    beside_frames: int = 30
    dead_stop_frames: int = 3
    leap_mm: float = 60.0
    put_back_mm: float = 300.0
    stir_mm: float = 80.0

    @property
    def rest_frames(self) -> int:
        """Frames of stillness that end a stroke."""
        return max(3, round(self.rest_s * self.fps))

    @property
    def roll_decel(self) -> float:
        """``roll_decel_mm_s2`` in mm a frame, a frame."""
        return self.roll_decel_mm_s2 / self.fps**2

    @property
    def slide_decel(self) -> float:
        """``slide_decel_mm_s2`` in mm a frame, a frame."""
        return self.slide_decel_mm_s2 / self.fps**2

    def run_frames(self, dist: float, speed: float) -> float:
        """Frames a cue ball struck from rest took to run ``dist`` mm, going
        on at ``speed`` mm a frame (over the frame after): sliding at first,
        slowed at ``slide_decel_mm_s2``, until it rolls at 5/7 of the speed
        it was struck at (struck at its centre), then all but steady. Taken
        as steady throughout, a hard strike's run, seen only at its end, was
        read slower than it went (seed 2658's break: unseen under the player
        for 1.8 m, first seen at 134 mm a frame; its stroke began 3 frames
        early)."""
        if speed <= 0.0:
            return math.inf
        a = self.slide_decel
        v0, sliding = self._struck(dist, speed)
        if sliding:  # still sliding when seen (at ``speed`` half a frame on)
            return (v0 - speed) / a - 0.5
        slid = (v0**2 - speed**2) / (2.0 * a)
        return (v0 - speed) / a + (dist - slid) / speed

    def struck_speed(self, dist: float, speed: float) -> float:
        """The speed (mm a frame) a ball struck from rest at its centre was
        struck at, having run ``dist`` mm and going on at ``speed`` mm a frame
        (see ``run_frames``)."""
        return self._struck(dist, speed)[0]

    def _struck(self, dist: float, speed: float) -> tuple[float, bool]:
        """``struck_speed`` and whether the ball still slid at the run's end."""
        a = self.slide_decel
        end = speed + a / 2.0  # (sliding, at the run's end)
        v0 = math.sqrt(end**2 + 2.0 * a * dist)
        if end >= 5.0 / 7.0 * v0:
            return v0, True
        return 7.0 / 5.0 * speed, False


class Phase(StrEnum):
    """What the segmenter is waiting for."""

    REST = "rest"
    STROKE = "stroke"
    NO_VIEW = "no_view"


@dataclass
class _Rest:
    """Rest positions by track id (mutable state of the segmenter)."""

    xy: dict[int, np.ndarray] = field(default_factory=dict)
    kind: dict[int, str] = field(default_factory=dict)


ROLL_STEPS = 3
"""Steps in a row, frame to frame, each faster than ``SegmenterConfig.moving_mm``
and on one way, that show a ball rolling (``_Stirring``)."""


class _Stirring:
    """Which balls the stroke's motion can have reached (track ids).

    A ball at rest moves only when a moving ball strikes it: the cue ball is
    stirred at the strike, and a ball is stirred when a stirred ball, moving,
    comes within ``stir_mm`` of its place (between two sightings, anywhere
    it can have gone in the time), or when it is seen rolling itself
    (``ROLL_STEPS`` steps on one way: struck by a ball unseen). Sightings of
    a ball the motion never reached that wander (far balls in a line along a
    broadcast camera's view, their discs overlapping, read now here, now 20
    to 80 mm off, and their tracks swapping places: seed 1110's pack, while
    the white lay still 600 mm away) are not motion, and keep no stroke open.
    Kept up to date frame by frame (``update``): bounded work per frame.
    """

    def __init__(self, config: SegmenterConfig, places: dict[int, np.ndarray]
                 ) -> None:
        self.config = config
        self.stirred: set[int] = set()
        self._places = {tid: xy.copy() for tid, xy in places.items()}
        self._last: dict[int, tuple[int, np.ndarray, float]] = {}
        self._steps: dict[int, deque[np.ndarray]] = {}
        self._done = 0

    def update(self, frames: list[BallFrame]) -> set[int]:
        """Take the frames of ``frames`` not yet taken; the stirred ids."""
        if self._done > len(frames):
            self._done = 0  # (the stroke's frames were cut back)
        for f in frames[self._done:]:
            if f.view:
                self._take(f)
        self._done = len(frames)
        return self.stirred

    def _take(self, f: BallFrame) -> None:
        c = self.config
        w = f.white()
        if w is not None:
            self.stirred.add(int(f.ids[w]))
        ways: list[tuple[np.ndarray, np.ndarray, float]] = []
        for j in np.flatnonzero(f.visible):
            tid, p = int(f.ids[j]), f.xy_mm[j]
            prev = self._last.get(tid)
            speed = 0.0
            if prev is not None:
                gap = f.frame - prev[0]
                step = p - prev[1]
                speed = float(np.linalg.norm(step)) / max(gap, 1)
                steps = self._steps.setdefault(tid, deque(maxlen=ROLL_STEPS))
                if gap != 1:
                    steps.clear()
                steps.append(step)
                if tid not in self.stirred and _rolls(steps, c.moving_mm):
                    self.stirred.add(tid)
                if tid in self.stirred and speed > c.moving_mm:
                    # anywhere it can have gone meanwhile, at its speed before
                    ways.append((prev[1], p, max(float(np.linalg.norm(step)),
                                                 prev[2] * gap)))
            self._last[tid] = (f.frame, p.copy(), speed)
            self._places[tid] = p.copy()
        for a, b, length in ways:
            for tid, q in self._places.items():
                if tid not in self.stirred and float(
                        np.linalg.norm(q - a) + np.linalg.norm(q - b)) <= (
                        length + 2 * c.stir_mm):
                    self.stirred.add(tid)


def _rolls(steps: deque[np.ndarray], moving_mm: float) -> bool:
    """``ROLL_STEPS`` steps, each over half of ``moving_mm`` and over it on
    average, each turned less than 45 degrees from the one before. (Seed
    2900's yellow, kissed by a red the tracker held still, rolled off at 3 mm
    a frame, read in steps of 5.3, 2.8, 2.0, 5.6, 1.7 and 2.2 mm at the far
    end of a broadcast view: never three over 2 mm in a row, it was not taken
    to move, and its stroke ended 7 frames early.)"""
    if len(steps) < ROLL_STEPS:
        return False
    size = [float(np.linalg.norm(s)) for s in steps]
    if min(size) <= moving_mm / 2 or sum(size) <= ROLL_STEPS * moving_mm:
        return False
    return all(float(a @ b) > math.cos(math.pi / 4) * sa * sb
               for a, b, sa, sb in zip(list(steps)[:-1], list(steps)[1:],
                                       size[:-1], size[1:], strict=True))


class StrokeSegmenter:
    """Streaming stroke segmentation of ``BallFrame``s.

    Args:
        config: Thresholds.
        spec: The table, whose D says where a cue ball in hand, first seen
            already rolling, was struck (``_from_the_d``); without it, the
            frame before it was first seen.
    """

    def __init__(self, config: SegmenterConfig | None = None,
                 spec: TableSpec | None = None) -> None:
        self.config = config or SegmenterConfig()
        self.spec = spec
        self.phase = Phase.REST
        self._pre: deque[BallFrame] = deque(maxlen=self.config.preroll)
        self._stroke: list[BallFrame] = []
        self._rest = _Rest()
        self._in_hand = True
        self._candidate: int | None = None
        self._count = 0
        self._interrupted = False
        self._view_run = 0
        self._start = 0
        self._begun = 0
        self._start_conf = 1.0
        self._held: BallFrame | None = None
        self._gone: dict[int, tuple[str, np.ndarray]] = {}
        self._fresh: set[int] = set()
        self._stirring: _Stirring | None = None
        self._at_rest: int | None = None
        self._awaited: set[int] = set()

    @property
    def count(self) -> int:
        """Strokes closed so far."""
        return self._count

    def push(self, bf: BallFrame) -> list[StrokeTracks | Handling]:
        """Take one frame; return the strokes and handling that it settled."""
        if not bf.view:
            return self._no_view(bf)
        if self.phase == Phase.NO_VIEW:
            self._view_run += 1
            if self._view_run < self.config.view_back:
                self._held = bf
                return []
            out: list[StrokeTracks | Handling] = [
                Handling(HandlingKind.VIEW_BACK, bf.frame)]
            if self._interrupted or self._changed(bf):
                # Something moved while we were away: finish it as a stroke.
                self.phase = Phase.STROKE
                self._interrupted = True
                self._stroke.append(bf)
                return out
            self.phase = Phase.REST
            self._pre.clear()
            return out + self._rest_frame(bf)
        if self.phase == Phase.STROKE:
            self._stroke.append(bf)
            return self._stroke_frame()
        return self._rest_frame(bf)

    def flush(self) -> list[StrokeTracks | Handling]:
        """End of footage: close a stroke in progress."""
        if self.phase == Phase.STROKE and self._at_rest is not None:
            return self._close_back(self._at_rest) + self.flush()
        if self.phase == Phase.STROKE or (self.phase == Phase.NO_VIEW
                                          and self._stroke):
            if len(self._stroke) > 1:
                return [self._close(len(self._stroke) - 1)]
        return []

    # -- at rest ----------------------------------------------------------

    def _no_view(self, bf: BallFrame) -> list[StrokeTracks | Handling]:
        if self.phase == Phase.STROKE and self._at_rest is not None:
            # (over where the table came to rest: ``_gone_into_jaws``)
            return self._close_back(self._at_rest) + self._no_view(bf)
        self._view_run = 0
        out: list[StrokeTracks | Handling] = []
        if self.phase == Phase.REST:
            out.append(Handling(HandlingKind.CAMERA_CUT, bf.frame))
            self._candidate = None
        elif self.phase == Phase.STROKE:
            settled = self._settled_at_cut()
            if settled is not None:
                # broadcasts cut as the balls stop: the stroke is over
                out.append(settled)
            else:
                self._interrupted = True
            out.append(Handling(HandlingKind.CAMERA_CUT, bf.frame))
        if self.phase == Phase.STROKE or self._stroke:
            self._stroke.append(bf)
            if len(self._stroke) > self.config.max_stroke_s * self.config.fps:
                self._stroke = self._stroke[-self.config.rest_frames:]
        self.phase = Phase.NO_VIEW
        return out

    def _settled_at_cut(self) -> StrokeTracks | None:
        """The stroke closed at its last frame before a cut, when every ball was
        already still over the last few frames (``SegmenterConfig.cut_rest_s``);
        None when something may still have been moving."""
        c = self.config
        k = max(3, round(c.cut_rest_s * c.fps))
        window = self._stroke[-k:]
        if (len(window) < k or not all(f.view for f in window)
                or window[-1].frame - self._begun < c.rest_frames):
            return None
        for tid in window[-1].ids:
            pts = _sightings(window, int(tid))
            if len(pts) >= 2 and max(
                    np.linalg.norm(p - pts[-1]) for p in pts) > c.still_mm:
                return None
        return self._close(len(self._stroke) - 1)

    def _changed(self, bf: BallFrame) -> bool:
        """True when the cue ball is away from its rest place (or gone)."""
        w = bf.white()
        rest = self._white_rest()
        if w is None or rest is None:
            return w is None and rest is not None
        return bool(np.linalg.norm(bf.xy_mm[w] - rest) > 4 * self.config.start_mm)

    def _white_tid(self) -> int | None:
        """Track id of the cue ball at rest, None when there is none."""
        return next((t for t, k in self._rest.kind.items() if k == WHITE), None)

    def _white_rest(self) -> np.ndarray | None:
        tid = self._white_tid()
        return None if tid is None else self._rest.xy[tid]

    def _rest_frame(self, bf: BallFrame) -> list[StrokeTracks | Handling]:
        c = self.config
        self._pre.append(bf)
        out: list[StrokeTracks | Handling] = []
        if not self._rest.xy:
            self._settle(bf, out, first=True)
            return out
        w = bf.white()
        rest_w = self._white_rest()
        if rest_w is None and w is not None and bf.visible[w]:
            # a cue ball appears (put down, or first seen already rolling):
            # anchor it where it is now
            tid = int(bf.ids[w])
            self._rest.xy[tid] = bf.xy_mm[w].copy()
            self._rest.kind[tid] = WHITE
            self._fresh.add(tid)
            rest_w = self._rest.xy[tid]
        if self._candidate is None:
            if (w is not None and rest_w is not None and bf.visible[w]
                    and np.linalg.norm(bf.xy_mm[w] - rest_w) > c.start_mm):
                self._candidate = bf.frame
        if self._candidate is not None and bf.frame - self._candidate >= c.confirm:
            if self._is_rolling() or self._stopped_dead():
                self._begin()
                return out
            self._set_down(out)
            self._candidate = None
        if self._candidate is None and (set_off := self._struck_unseen()) is not None:
            self._begin_at(set_off, UNSEEN_STRIKE_CONFIDENCE)
            return out
        if self._candidate is None and len(self._pre) >= c.rest_frames:
            self._settle(bf, out)
        return out

    def _white_track(self, frames: list[BallFrame]) -> list[np.ndarray]:
        pts = []
        for f in frames:
            w = f.white()
            if w is not None and f.visible[w]:
                pts.append(f.xy_mm[w])
        return pts

    def _since_candidate(self) -> list[BallFrame]:
        """The frames at rest from the candidate start on (the confirm frames)."""
        return [f for f in self._pre if f.frame >= self._candidate]  # type: ignore[operator]

    def _is_rolling(self) -> bool:
        """The cue ball kept moving over the confirm frames (not set down). Seen
        first within ``leap_mm`` of its place and then more than half way back
        to it, it flickered, unless a ball beside it set off (a far cue ball,
        half hidden by the ball in front and the cue's tip over it, read 46 mm
        off its place and then 20 mm off, is no stroke: seed 928; one struck
        into a ball beside it can screw back)."""
        c = self.config
        frames = self._since_candidate()
        pts = self._white_track(frames)
        if len(pts) < 2:
            return False
        p = np.array(pts)
        steps = np.linalg.norm(np.diff(p, axis=0), axis=1)
        net = float(np.linalg.norm(p[-1] - p[0]))
        if not (np.median(steps) > c.moving_mm and steps.max() < 400.0
                and net >= 3 * c.moving_mm and net >= 0.6 * steps.sum()):
            return False
        rest_w = self._white_rest()
        assert rest_w is not None
        leap = float(np.linalg.norm(p[0] - rest_w))
        if leap > c.leap_mm or float(np.linalg.norm(p[-1] - rest_w)) > leap / 2:
            return True
        return self._set_off_near(frames, rest_w)

    def _stopped_dead(self) -> bool:
        """The cue ball, seen still off its place over the confirm frames, got
        there from its place in no more than ``dead_stop_frames``, from
        farther than ``leap_mm`` (faster than a hand moves it), and a ball at
        rest within ``beside_mm`` of where it stopped has set off: it was
        struck and stunned into that ball (seed 731's, 150 mm off in two
        frames beside the red it potted, was taken as set down by hand)."""
        c = self.config
        rest_w = self._white_rest()
        assert rest_w is not None and self._candidate is not None
        at_rest = [f.frame for f in self._pre if f.frame < self._candidate
                   and (w := f.white()) is not None and f.visible[w]
                   and np.linalg.norm(f.xy_mm[w] - rest_w) <= c.start_mm]
        if not at_rest or self._candidate - at_rest[-1] > c.dead_stop_frames:
            return False
        frames = self._since_candidate()
        pts = self._white_track(frames)
        if not pts or np.linalg.norm(pts[0] - rest_w) <= c.leap_mm:
            return False
        # (first seen off its place, or where it stopped: seed 2713's, struck
        # 168 mm in two frames, was seen once on the way, 139 mm from the red
        # it stopped against)
        return self._set_off_near(frames, pts[0]) or self._set_off_near(
            frames, pts[-1])

    def _set_off_near(self, frames: list[BallFrame], at: np.ndarray) -> bool:
        """Has an object ball at rest within ``beside_mm`` of ``at`` (mm) set
        off, or gone at once (potted: unseen since, from a place within
        ``beside_mm`` of a pocket), by the last of ``frames``? (Seed 1446: the
        referee's hand, re-spotting the pink, hid the reds beside its spot
        and was read as the white there, 750 mm from its place: taken for the
        white stunned into a red it potted, a stroke with no contact, a foul.)"""
        c = self.config
        for tid, xy in self._rest.xy.items():
            if self._rest.kind[tid] == WHITE or np.linalg.norm(xy - at) > (
                    c.beside_mm):
                continue
            seen = _sightings(frames, tid)
            if seen:
                if np.linalg.norm(seen[-1] - xy) > c.start_mm:
                    return True
            elif self.spec is None or any(math.dist(xy, p) <= c.beside_mm
                                          for p in self.spec.pockets.values()):
                return True
        return False

    def _set_down(self, out: list[StrokeTracks | Handling]) -> None:
        """The cue ball, off its rest place but seen still there over the
        confirm frames, was set down there: its rest place moves there now,
        not after the rest window (seed 646's, carried in the hand 80 mm from
        where it was put down, was struck 9 frames later, and the stroke was
        taken to start when the hand was first seen, 58 frames early)."""
        c = self.config
        frames = self._since_candidate()
        pts = self._white_track(frames)
        if len(pts) < len(frames):
            return
        p = np.array(pts)
        if float(np.linalg.norm(p - p[-1], axis=1).max()) > c.still_mm:
            return
        tid = self._white_tid()
        assert tid is not None
        xy = p[-1]
        self._handled(out, frames[-1].frame, WHITE, self._rest.xy[tid], xy)
        self._rest.xy[tid] = xy.copy()
        self._fresh.discard(tid)

    def _settle(self, bf: BallFrame, out: list[StrokeTracks | Handling],
                first: bool = False) -> None:
        """Balls still over the pre-roll: record changes as handling."""
        c = self.config
        frames = list(self._pre)[-c.rest_frames:]
        ids_now = {int(i): j for j, i in enumerate(bf.ids)}
        seen_ids = set(self._rest.xy)
        # (W, N, 2) positions of this frame's balls over the window (NaN: absent)
        hist = np.full((len(frames), len(bf.ids), 2), np.nan)
        for r, f in enumerate(frames):
            rows = [f.lookup.get(int(t), -1) for t in bf.ids]
            idx = np.array(rows, int)
            ok = idx >= 0
            hist[r, ok] = f.xy_mm[idx[ok]]
        drift = np.linalg.norm(hist - bf.xy_mm[None], axis=2)
        still_all = np.all(drift <= c.still_mm, axis=0)  # NaN compares False
        for tid, j in ids_now.items():
            xy = bf.xy_mm[j]
            still = bool(still_all[j])
            if not still or not bf.visible[j]:
                continue
            old = self._rest.xy.get(tid)
            kind = bf.kinds[j]
            gone = self._gone.pop(tid, None)
            back = old is None and gone is not None and gone[0] == kind and bool(
                np.linalg.norm(gone[1] - xy) < 60.0)
            if back:
                old = gone[1]  # type: ignore[index]
            if tid in self._fresh:
                self._fresh.discard(tid)
                old = None
            if not first and (old is None or back
                              or np.linalg.norm(old - xy) > c.start_mm):
                self._handled(out, bf.frame, kind, old, xy)
            self._rest.xy[tid] = xy.copy()
            self._rest.kind[tid] = kind
        for tid in seen_ids - set(ids_now):
            self._gone[tid] = (self._rest.kind[tid], self._rest.xy[tid])
            del self._rest.xy[tid]
            del self._rest.kind[tid]
        if first and bf.white() is not None:
            self._in_hand = True

    def _handled(self, out: list[StrokeTracks | Handling], frame: int, kind: str,
                 old: np.ndarray | None, xy: np.ndarray) -> None:
        """Record a ball of ``kind`` put at ``xy`` (mm) by hand, from ``old``
        (None: it was not on the table); the cue ball placed is no longer in
        hand."""
        out.append(Handling(self._handling_kind(kind, old, xy), frame, kind,
                            (float(xy[0]), float(xy[1]))))
        if kind == WHITE:
            self._in_hand = False

    def _handling_kind(self, kind: str, old: np.ndarray | None,
                       xy: np.ndarray) -> HandlingKind:
        if kind == WHITE and (old is None or self._in_hand):
            return HandlingKind.CUE_BALL_PLACED
        if old is None:
            return HandlingKind.RESPOT
        if np.linalg.norm(old - xy) < 60.0:
            return HandlingKind.CLEANED
        return HandlingKind.RESPOT if kind not in (WHITE, "red") else HandlingKind.MOVED

    # -- during a stroke ----------------------------------------------------

    def _begin(self) -> None:
        """Start a stroke at the strike before the candidate frame."""
        c = self.config
        pre = list(self._pre)
        tid = self._white_tid()
        assert tid is not None and self._candidate is not None
        rest_w = self._rest.xy[tid]
        cand = self._past_flicker(
            pre, next(i for i, f in enumerate(pre) if f.frame == self._candidate),
            rest_w)
        lay = self._lay_off_rest(pre, cand)
        if lay is not None:
            w = pre[lay].white()
            assert w is not None
            at = pre[lay].xy_mm[w].copy()
            self._rest.xy[tid] = at
            self._begin_at(min(lay, self._set_off_beside(pre, lay, at)), 1.0)
            return
        start = cand - 1
        conf = 1.0
        wc = pre[cand].white()
        after: float | None = None  # distance from rest one frame later
        if wc is not None and pre[cand].visible[wc]:
            after = float(np.linalg.norm(pre[cand].xy_mm[wc] - rest_w))
        while start > 0:
            f = pre[start]
            w = f.white()
            if w is None:
                break
            if not f.visible[w]:
                conf = 0.6
                after = None
            else:
                d = float(np.linalg.norm(f.xy_mm[w] - rest_w))
                if d <= c.onset_mm or (after is not None and d < 0.4 * (after - d)) or (
                        _still_into(pre, start, c.onset_mm)):
                    # (a shift much smaller than the next frame's step is the
                    # cue's tip over the ball at the strike, not yet rolling;
                    # so is one it was at the frame before: seed 742's white,
                    # against the top cushion, its place read 4 mm off under
                    # the cue 11 frames before the strike, began its stroke
                    # there)
                    break
                after = d
            start -= 1
        if self._appeared_rolling(pre, start):
            conf = 0.6
            start = self._from_the_d(pre, start)
        elif conf < 1.0:
            # Hidden at the strike: extrapolate back from the first two sightings
            # (or, where it struck a ball before it was first seen, from that
            # contact: ``_hidden_contact``).
            seen = [f for f in pre[cand:]
                    if f.white() is not None and f.visible[f.white()]]
            down = self._put_down_hidden(pre, seen)
            if down is not None:
                start, conf = down, 1.0
            elif len(seen) >= 2:
                pts = self._white_track(seen[:2])
                step = float(np.linalg.norm(pts[1] - pts[0])) / (
                    seen[1].frame - seen[0].frame)
                contact = self._hidden_contact(
                    pre, start, seen[0].frame, step, lambda place, way: max(
                        float(np.linalg.norm(place - rest_w)) - self._ball_width,
                        0.0))
                if contact is not None:
                    start = max(start, contact)
                else:
                    dist = float(np.linalg.norm(pts[0] - rest_w))
                    back = self.config.run_frames(dist, step)
                    if math.isfinite(back):
                        start = max(start, cand - math.ceil(back - 1e-9))
        start = min(start, self._set_off_beside(pre, start, rest_w))
        self._begin_at(start, conf)

    def _past_flicker(self, pre: list[BallFrame], cand: int, rest_w: np.ndarray
                      ) -> int:
        """Index in ``pre`` of the first frame the cue ball left its place
        ``rest_w`` (mm) at or after the candidate ``cand``: past a one-frame
        flicker of its reading, when the two sightings or more that follow lie
        back within ``still_mm`` of its place (seed 2884's white, at the far
        end of a broadcast view, read 8 mm off in depth as the cue came
        through, then at its place for two frames before the strike: its
        stroke began 3 frames early)."""
        k = cand + 1
        while k < len(pre) - 1:
            w = pre[k].white()
            if w is None or not pre[k].visible[w] or float(np.linalg.norm(
                    pre[k].xy_mm[w] - rest_w)) > self.config.still_mm:
                break
            k += 1
        return k if k - cand > 2 else cand

    def _lay_off_rest(self, pre: list[BallFrame], cand: int) -> int | None:
        """Index in ``pre`` of the last frame the cue ball was seen still
        where it was at the candidate frame ``cand``, when it was seen still
        there on the next frame too and then set off: it lay there at the
        strike, its rest place read off it (the cue or the player over it;
        seed 2324's, far in a broadcast view, read 45 mm off its place for six
        frames before it was hidden, then seen back at its place two frames
        before the strike: the stroke began 14 frames early). None when it
        was moving at once."""
        k = cand
        while k + 1 < len(pre) and _still_into(pre, k + 1, self.config.onset_mm):
            k += 1
        if k == cand or k + 1 >= len(pre):
            return None
        w = pre[k + 1].white()
        return k if w is not None and pre[k + 1].visible[w] else None

    def _put_down_hidden(self, pre: list[BallFrame], seen: list[BallFrame]
                         ) -> int | None:
        """Index in ``pre`` of the strike of a cue ball in hand moved while
        hidden: first seen again (``seen``: the frames it is seen in from the
        candidate on) still, where a hand puts it (in the D), it was set down
        there, not rolling from its old place; struck in the last frame it is
        seen still there (seed 1836's, put down in the D, hidden by the
        player for 32 frames, moved 66 mm and struck a frame after it was
        seen again: its stroke began where it was first hidden, 34 frames
        early). None when it was not."""
        if self.spec is None or len(seen) < 2:
            return None
        pts = self._white_track(seen)
        if not placed_by_hand(self.spec, WHITE, pts[0]):
            return None
        still = 0
        while still + 1 < len(pts) and float(np.linalg.norm(
                pts[still + 1] - pts[0])) <= self.config.still_mm:
            still += 1
        if still == 0 or still + 1 == len(pts):
            return None  # (not seen still, or not seen leaving)
        frame = seen[still].frame
        return next(i for i, f in enumerate(pre) if f.frame == frame)

    @cached_property
    def _ball_width(self) -> float:
        """A ball's diameter, mm (the official table's without a table)."""
        return (self.spec or OFFICIAL).ball_diameter_mm

    def _hidden_contact(
        self, pre: list[BallFrame], rest: int, first_seen: int, step: float,
        run_to: Callable[[np.ndarray, np.ndarray], float | None],
    ) -> int | None:
        """Index in ``pre`` of the strike of a cue ball hidden from its place at
        rest (last seen there in ``pre[rest]``) until frame ``first_seen``,
        where a ball at rest set off before then: the cue ball struck it first.

        The contact is when that ball left its place, at the speed of its first
        two sightings off it (or, where it was not seen leaving, timed back
        from its run: ``_left_hidden``); the cue ball ran
        ``run_to(place, way)`` mm to it (``way``: the unit (2,) direction the
        ball at ``place`` set off in; None: it cannot have struck it) at the
        speed it had before the contact, which, the balls being alike, is
        that of both balls after it together (``step``: the cue ball's, mm a
        frame, at its first sightings). Its speed after the
        contact says nothing of its way there (seed 1394's, struck unseen at
        100 mm a frame into a red 590 mm off and first seen at 29 mm a frame:
        its stroke began 10 frames early). A ball its first sightings show it
        still coming to was not struck by it yet (``_still_coming``). None when
        no ball set off then.
        """
        white = [i for i, f in enumerate(pre) if f.frame >= first_seen
                 and (w := f.white()) is not None and f.visible[w]]
        contacts = []
        for tid, xy in self._rest.xy.items():
            if self._rest.kind[tid] == WHITE:
                continue
            since = [(f.frame, f.xy_mm[j]) for f in pre[rest:]
                     if (j := f.lookup.get(tid)) is not None and f.visible[j]]
            # (by the frame after the cue ball's first sighting, where that
            # lay beside its place and it was seen leaving then: it left as
            # the cue ball came off it; seed 2958's white, struck unseen into
            # the blue 198 mm off, was first seen 54 mm from the spot, the
            # blue still read on it, and the blue off it the frame after:
            # timed back at its own speed, its stroke began 5 frames early)
            beside = self._seen_beside(pre, white, xy)
            seen = [(f, q) for f, q in since if f <= first_seen + int(beside)]
            away = [float(np.linalg.norm(q - xy)) > self.config.start_mm
                    for _, q in seen]
            if not any(away):
                continue
            if self._still_coming(pre, white, xy):
                continue  # not reached by the cue ball yet
            k = away.index(True)
            if seen[k][0] > first_seen and (k == 0 or seen[k - 1][0] < first_seen):
                continue  # not seen leaving in that frame
            if k == 0 or seen[k][0] - seen[k - 1][0] > 1:
                # not seen leaving: unseen since the cue ball was last seen
                # at rest, or since a frame before (it left after both)
                floor = seen[k - 1][0] if k > 0 else pre[rest].frame
                hidden = self._left_hidden(since[k:], xy)
                if hidden is None or hidden[0] < floor:
                    continue
                left, v_obj, way = hidden
            else:
                # (seen rolling on, or seen so only after the cue ball was
                # first seen, beside its place: seed 2820's white, struck
                # unseen into a red 265 mm off and screwed back, was first
                # seen beside it in the frame the red was first seen off its
                # place; timed back at its speed after the contact, its stroke
                # began 18 frames early. Not one the cue ball was first seen
                # far from: seed 2602's break, two reds at the back of the
                # pack, seen running on after the white was first seen by the
                # apex, would have begun it 6 frames early)
                if len(since) < k + 2 or float(np.linalg.norm(
                        since[k + 1][1] - xy)) <= self.config.start_mm or (
                        since[k + 1][0] > first_seen and not beside):
                    continue  # not seen rolling on
                (f1, p1), (f2, p2) = seen[k], since[k + 1]
                v_obj = float(np.linalg.norm(p2 - p1)) / (f2 - f1)
                off = float(np.linalg.norm(p2 - xy))
                if v_obj <= 0.0 or off == 0.0:
                    continue
                way = (p2 - xy) / off
                left = f1 - min(float(np.linalg.norm(p1 - xy)) / v_obj, 1.0)
            run = run_to(xy, way)
            if run is None:
                continue
            contacts.append(left - self.config.run_frames(
                run, math.hypot(v_obj, step)))
        if not contacts:
            return None
        strike = _strike_said(contacts)
        return max((i for i, f in enumerate(pre) if f.frame <= round(strike)),
                   default=0)

    def _seen_beside(self, pre: list[BallFrame], white: list[int],
                     place: np.ndarray) -> bool:
        """Was the cue ball, at its first sighting (``pre[white[0]]``), within
        ``beside_mm`` of ``place`` (mm)?"""
        if not white:
            return False
        f = pre[white[0]]
        w = f.white()
        return w is not None and float(np.linalg.norm(
            f.xy_mm[w] - place)) <= self.config.beside_mm

    def _left_hidden(self, seen: list[tuple[int, np.ndarray]], place: np.ndarray
                     ) -> tuple[float, float, np.ndarray] | None:
        """A ball not seen leaving its place ``place`` (mm), first seen
        (``seen``: its sightings since, frame and (2,) mm) off it and in the
        next frame farther on along the line from it: when it left (a
        fractional frame), the speed it was struck at (mm a frame) and the
        unit way it went. Struck at its centre, it slid from rest
        (``SegmenterConfig.run_frames``). Seed 2694's red, struck under the
        player by the white, also hidden, and first seen 258 mm off, gave no
        contact: the white was timed back at its speed after the contact, and
        the stroke began 3 frames early. None when not so seen."""
        c = self.config
        if len(seen) < 2 or seen[1][0] - seen[0][0] > 1:
            return None
        (f1, p1), (_, p2) = seen[0], seen[1]
        off, step = p1 - place, p2 - p1
        dist, v = float(np.linalg.norm(off)), float(np.linalg.norm(step))
        if dist <= c.start_mm or v <= 0.0 or float(off @ step) < (
                RUN_ON_COS * dist * v):
            return None
        return (f1 - c.run_frames(dist, v), c.struck_speed(dist, v), off / dist)

    def _begin_at(self, start: int, conf: float) -> None:
        """Start a stroke at ``self._pre[start]`` (the strike), its time sure
        to ``conf``."""
        pre = list(self._pre)
        self._start = pre[start].frame
        self._begun = pre[-1].frame
        self._start_conf = conf
        self._stroke = pre[max(0, start - 2):]
        self._stirring = _Stirring(self.config, self._rest.xy)
        self._pre.clear()
        self._candidate = None
        self.phase = Phase.STROKE

    def _struck_unseen(self) -> int | None:
        """Index in ``self._pre`` of the strike of a cue ball unseen when
        an object ball at rest set off rolling (its first ``ROLL_STEPS`` steps
        off its place in successive frames each over ``moving_mm``, on one
        way) ``rest_frames`` or more ago, and went ``beside_mm`` or more: the
        frame before it was first seen off its place. (Time enough for the
        cue ball to be seen rolling, when it was only hidden at the strike.)
        The cue ball was struck under the player, and read as another ball
        while it ran (seed 1182's, hidden by the player from before the
        strike, ran 440 mm into the pack and was read there 0.4-0.8 white, as
        a red beside it was: the stroke, which potted a red, was never found,
        and the score was 1 short). Unseen from the strike to the end of that
        run, it may since have been seen, but only at its rest place: a
        tracker holds a ball at rest there when read up to a ball's width off
        (seed 2832's, struck unseen into the pack, came to rest 29 mm from its
        place, held there, seen: the stroke, which potted a red, was never
        found). A ball that lay beside the cue ball's place (within
        ``beside_mm``) may have been struck by it seen at its place all along,
        before the strike as after: struck into a ball beside it, a cue ball
        stops all but dead, and is held there (seed 2856's, stunned into a red
        7 mm off at the far end of a broadcast view, stopped 23 mm from its
        place; its stroke, a foul, was never found). None when none did."""
        c = self.config
        pre = list(self._pre)
        white = self._white_rest()
        for tid, xy in self._rest.xy.items():
            if self._rest.kind[tid] == WHITE:
                continue
            seen = [(i, pre[i].frame, pre[i].xy_mm[j]) for i in range(len(pre))
                    if (j := pre[i].lookup.get(tid)) is not None
                    and pre[i].visible[j]]
            at_place = [k for k, (_, _, q) in enumerate(seen)
                        if float(np.linalg.norm(q - xy)) <= c.start_mm]
            run = seen[at_place[-1] + 1 if at_place else 0:][:ROLL_STEPS + 1]
            if (len(run) <= ROLL_STEPS or run[-1][1] - run[0][1] != ROLL_STEPS
                    or len(pre) - 1 - run[0][0] < c.rest_frames
                    or float(np.linalg.norm(seen[-1][2] - xy)) < c.beside_mm):
                continue
            steps = deque(b[2] - a[2] for a, b in itertools.pairwise(run))
            strike = max(run[0][0] - 1, 0)
            beside = white is not None and float(
                np.linalg.norm(xy - white)) <= c.beside_mm and any(
                float(np.linalg.norm(p - white)) <= c.start_mm
                for p in self._white_track(pre[:strike]))
            if _rolls(steps, c.moving_mm) and self._hidden_through(
                    pre, strike, strike if beside else run[-1][0] + 1, white):
                return strike
        return None

    def _hidden_through(self, pre: list[BallFrame], strike: int, held_from: int,
                        rest: np.ndarray | None) -> bool:
        """Was the cue ball unseen from ``pre[strike]`` on, but for sightings
        within ``start_mm`` of its rest place ``rest`` (mm) from
        ``pre[held_from]`` on? (``_struck_unseen``)"""

        def at_rest_or_unseen(f: BallFrame, hidden: bool) -> bool:
            w = f.white()
            if w is None:
                return False
            if not f.visible[w]:
                return True
            return not hidden and rest is not None and float(
                np.linalg.norm(f.xy_mm[w] - rest)) <= self.config.start_mm

        return all(at_rest_or_unseen(f, i < held_from)
                   for i, f in enumerate(pre[strike:], strike))

    def _appeared_rolling(self, pre: list[BallFrame], start: int) -> bool:
        """Was the cue ball first seen in ``pre[start]``, already rolling?
        (Placed in hand and struck unseen, under the player's arm: its rest
        place was put where it was first seen.)"""
        w = pre[start].white()
        if w is None or int(pre[start].ids[w]) not in self._fresh:
            return False
        tid = int(pre[start].ids[w])
        return not _seen_in(pre[:start], tid)

    def _from_the_d(self, pre: list[BallFrame], start: int) -> int:
        """Index in ``pre`` of the strike of a cue ball in hand first seen
        rolling in ``pre[start]``: it was placed in the D (seed Part 3 rule 5),
        somewhere on its way back there, and is taken to have come from the
        middle of that stretch, slowing to the speed of its first two
        sightings (``SegmenterConfig.run_frames``; seed 1046's, struck under
        the player's arm and first seen 200 mm out of the D, was taken to be
        struck there: 4 frames late; seed 3296's, first seen 340 mm on at 49
        mm a frame, was taken to run there at that speed, sliding faster at
        first: 3 frames early). Where a ball at
        rest set off before it was first seen, it struck that ball first, and
        came to it along about the way that ball set off (the line of centres)
        from the middle of that way's stretch in the D (``_hidden_contact``;
        seed 2224's, first seen coming off the brown it struck, was taken back
        along its way off the brown: 6 frames early). The frame before it was
        first seen when its way back misses the D or there is no table."""
        seen = [f for f in pre[start:] if (w := f.white()) is not None
                and f.visible[w]][:2]
        if self.spec is None or len(seen) < 2:
            return max(0, start - 1)
        p0, p1 = self._white_track(seen)
        gap = float(np.linalg.norm(p1 - p0))
        if gap == 0.0:
            return max(0, start - 1)
        step = gap / (seen[1].frame - seen[0].frame)
        contact = self._hidden_contact(
            pre, 0, seen[0].frame, step,
            lambda place, way: self._run_from_the_d(place, way, self._ball_width))
        if contact is not None:
            return contact
        run = self._run_from_the_d(p0, (p1 - p0) / gap, 0.0)
        if run is None:
            return max(0, start - 1)
        frames = max(round(self.config.run_frames(run, step)), 1)
        return max((i for i in range(start) if pre[i].frame <= pre[start].frame
                    - frames), default=0)

    def _run_from_the_d(self, at: np.ndarray, way: np.ndarray,
                        off: float) -> float | None:
        """How far (mm) a cue ball in hand ran to ``at`` (mm) less ``off`` mm
        (a ball's width where ``at`` is the place of a ball it struck), going
        along ``way`` (a unit (2,) vector): to the middle of the stretch of
        that way back that lies in the D; None when it misses the D."""
        assert self.spec is not None
        reach = at - off * way
        back = np.arange(0.0, self.spec.length_mm, 5.0)
        pts = reach[None] - back[:, None] * way[None]
        inside = back[[self.spec.in_d((float(x), float(y))) for x, y in pts]]
        if len(inside) == 0:
            return None
        return 0.5 * float(inside.min() + inside.max())

    def _set_off_beside(self, pre: list[BallFrame], start: int,
                        rest_w: np.ndarray) -> int:
        """Index in ``pre`` of the strike, when a ball at rest near the cue
        ball set off within ``beside_frames`` before ``start`` and did not come
        back: struck by the cue ball, which was not seen to leave its place
        (screwing back through it, half hidden by the cue, or unseen: seeds
        371, 388, 416). Near is ``beside_mm``, and ``reach_mm`` farther for each
        frame the cue ball was unseen before the ball set off. ``start``
        otherwise."""
        c = self.config
        best = start
        lo = max(1, start - c.beside_frames)
        white_seen = [i for i in range(lo - 1, len(pre)) if (
            (w := pre[i].white()) is not None and pre[i].visible[w])]
        for tid, xy in self._rest.xy.items():
            if self._rest.kind.get(tid) == WHITE:
                continue
            away = []
            for i in range(lo, len(pre)):
                j = pre[i].lookup.get(tid)
                if j is None or not pre[i].visible[j]:
                    continue
                away.append((i, float(np.linalg.norm(pre[i].xy_mm[j] - xy))
                             > c.start_mm))
            if not away or not away[-1][1]:
                continue  # not seen, or back at its place: not struck
            # set off at the first sighting after the last one at its place
            k = 1 + max((k for k, (_, gone) in enumerate(away) if not gone),
                        default=-1)
            if len(away) - k < 2:
                continue  # seen off its place once: no run to show it struck
                # (seed 1788's pink, hidden by the player, read 86 mm off
                # once as he addressed the white, unseen too: the stroke
                # began 12 frames early)
            i0 = away[k][0]
            if self._track_leapt(pre, tid, xy, [i for i, _ in away[k:k + 2]]):
                continue
            if _stayed([pre[i] for i, _ in away[k:]], tid, c.still_mm):
                continue  # moved once, and stayed: the tracker put its place
                # right (seed 533's red, 13 mm off, set right as the player
                # came to the white: the stroke began 11 frames early)
            if self._still_coming(pre, [i for i in white_seen if i > i0], xy):
                continue  # the cue ball had not reached it yet (seed 1402's
                # break: a red of the pack read 26 mm off as the player stood
                # over the white, first seen 1200 mm short of it: the stroke
                # began 9 frames early)
            last_w = max((i for i in white_seen if i < i0), default=lo - 1)
            reach = c.beside_mm + c.reach_mm * (i0 - last_w - 1)
            if np.linalg.norm(xy - rest_w) <= reach:
                best = min(best, i0 - 1)
        return best

    def _track_leapt(self, pre: list[BallFrame], tid: int, place: np.ndarray,
                     off: list[int]) -> bool:
        """Did the track of a ball at rest at ``place`` leave it in a leap
        (``_leapt``) beyond ``beside_mm``, its first two sightings off it in
        ``pre[i]`` for ``i`` in ``off``: taken for another thing, not struck
        (seed 1422: a red beside the cue ball, both hidden by the player, its
        track taken 1100 mm away by the cue's butt read red, 20 frames before
        the strike; the stroke began there)? Its last sighting at its place in
        ``pre`` (or the frame before the first) is where it leapt from."""
        p1, p2 = (pre[i].xy_mm[pre[i].lookup[tid]] for i in off)
        if float(np.linalg.norm(p1 - place)) <= self.config.beside_mm:
            return False
        rest = pre[0].frame - 1
        for f in pre[:off[0]]:
            j = f.lookup.get(tid)
            if j is not None and f.visible[j] and float(
                    np.linalg.norm(f.xy_mm[j] - place)) <= self.config.start_mm:
                rest = f.frame
        rows = np.array([rest, pre[off[0]].frame, pre[off[1]].frame])
        return _leapt(np.array([place, p1, p2]), rows, self.config)

    def _still_coming(self, pre: list[BallFrame], seen: list[int], at: np.ndarray
                      ) -> bool:
        """Do the cue ball's first two sightings ``pre[i]`` (``seen``: indices,
        after a ball at ``at`` mm set off) show it still on its way there: off
        touching it and nearing it (a cue ball that struck it moves away from
        it, until a cushion sends it back)?"""
        if len(seen) < 2:
            return False
        d0, d1 = (float(np.linalg.norm(p - at))
                  for p in self._white_track([pre[i] for i in seen[:2]]))
        return d1 > self._ball_width and d0 - d1 > self.config.moving_mm * (
            seen[1] - seen[0])

    def _stroke_frame(self) -> list[StrokeTracks | Handling]:
        c = self.config
        n = len(self._stroke)
        if n > c.max_stroke_s * c.fps:
            return self._close_back(n - 1)
        # the stroke was over before the cue ball was struck again (or a ball
        # that had vanished was put back by hand): close it there, and take
        # the frames since as at rest
        if (again := self._struck_again()) is not None:
            k, wid, place = again
            return self._close_back(k - 1, {wid: place})
        if (back := self._put_back()) is not None:
            k, tid = back
            return self._close_back(k - 1, lifted=tid)
        if self._stroke[-1].frame - self._start < c.confirm + 2 or n < c.rest_frames:
            return []
        if self._stroke[-1].frame - self._begun < c.rest_frames:
            # the rest window must follow the motion that began the stroke
            # (a cue ball first seen far away, rolling, has few sightings)
            return []
        window = self._stroke[-c.rest_frames:]
        if not all(f.view for f in window):
            return []
        last = window[-1]
        stirred = self._stirred()
        moving = self._moving_now(window, stirred)
        if self._awaited & {int(t) for t in last.ids}:
            self._at_rest = None  # a ball awaited in the jaws is back
        if moving:
            if self._at_rest is not None:
                # something else moved since the table came to rest: the
                # stroke was over then (the cue ball struck again, a hand)
                return self._close_back(self._at_rest)
            return []
        if any(self._gone_rolling(tid) for tid in {int(t) for f in self._recent()
                                                   for t in f.ids}
               if stirred is None or tid in stirred):
            return []
        span = self._stroke[-round(c.jaws_wait_s * c.fps):]
        jaws = {tid for tid in {int(t) for f in span for t in f.ids}
                if (stirred is None or tid in stirred) and tid not in last.lookup
                and self._gone_into_jaws(span, tid)}
        if jaws:
            # at rest but for balls that may have stopped in the jaws unseen:
            # over here, unless one of them is found there
            if self._at_rest is None:
                self._at_rest, self._awaited = n - 1, jaws
            return []
        if self._at_rest is not None:
            return self._close_back(self._at_rest)
        if self._all_in_place(last):
            self._back_to_rest(self._stroke)
            return []
        return [self._close(n - 1)]

    def _all_in_place(self, last: BallFrame) -> bool:
        """Is every ball of the rest before the stroke, the white seen among
        them, back within ``still_mm`` of its place in ``last`` (the stroke's
        last frame), and no other there? Then nothing was struck: a white
        struck comes back to its place only off a cushion or a ball, and does
        not stop there; what moved was a hand or the cue read as the white
        (seed 1746's, by a far corner in a broadcast view, hidden by the
        player's hand, and the cue read as it 37 then 72 mm off in two steady
        steps: a stroke of nothing, a miss, was found)."""
        w = last.white()
        rest_w = self._white_rest()
        if w is None or not last.visible[w] or rest_w is None or set(
                last.lookup) != set(self._rest.xy):
            return False
        return all(float(np.linalg.norm(last.xy_mm[j] - self._rest.xy[int(t)]))
                   <= self.config.still_mm for j, t in enumerate(last.ids))

    def _moving_now(self, window: list[BallFrame], stirred: set[int] | None
                    ) -> bool:
        """Does a ball (of ``stirred``) move over ``window``, the stroke's
        last rest window, or was it lost rolling a moment ago?"""
        c = self.config
        recent = window[-c.held_frames - 1:]
        for tid in window[-1].ids:
            if stirred is not None and int(tid) not in stirred:
                continue  # nothing moving came near it: it cannot have moved
            if _seen_in(recent, int(tid)):
                # (seen now and then only, its drift over the window says
                # little: how fast it went between its last two sightings
                # does; seed 608's white, missed by the far cushion for 6 of 9
                # frames, was taken to be at rest, and its stroke cut in two)
                if _moving(window, int(tid), c.still_mm) or (
                        len(_sightings(window, int(tid))) < len(window) // 2
                        and (self._lost_moving(int(tid))
                             or _creeping(window, int(tid), c.still_mm))):
                    return True
            elif self._lost_moving(int(tid)):
                return True
        return False

    def _close_back(self, last: int, places: dict[int, np.ndarray] | None = None,
                    lifted: int | None = None) -> list[StrokeTracks | Handling]:
        """Close the stroke at row ``last`` of ``self._stroke`` and take the
        frames since as at rest (they may begin the next stroke); ``places``:
        see ``estimate_end``; ``lifted``: track id of a ball taken off the
        table by hand since (it has no rest place: it is being put back)."""
        if self._at_rest is not None:
            last = min(last, self._at_rest)
        later = self._stroke[last + 1:]
        out: list[StrokeTracks | Handling] = [self._close(last, places)]
        if lifted is not None and self._rest.xy.pop(lifted, None) is not None:
            if self._rest.kind.pop(lifted) == WHITE:
                self._in_hand = True
        for f in later:
            out += self.push(f)
        return out

    def _put_back(self) -> tuple[int, int] | None:
        """Row of ``self._stroke`` (its last) where a ball that had vanished
        (taken for potted by the tracker) came back ``put_back_mm`` or more
        from where it was last seen, and that ball's track id: put back by
        hand (the cue ball in hand, a colour re-spotted), not rattled out of
        the jaws. The stroke was over before it (``_gone_rolling`` keeps it
        open a while after a pot). None when none did."""
        if len(self._stroke) < 2:
            return None
        last, before = self._stroke[-1], self._stroke[-2]
        if not before.view:
            return None  # (every ball is back when the view is)
        c = self.config
        for j, tid in enumerate(last.ids):
            k = before.lookup.get(int(tid))
            if not last.visible[j] or (k is not None and before.visible[k]):
                continue
            seen = _timed_sightings(self._stroke[:-1], int(tid))
            if not seen or float(np.linalg.norm(last.xy_mm[j] - seen[-1][1])) < (
                    c.put_back_mm):
                continue
            # vanished (taken for potted), or held hidden a while where it went
            # and seen again where a hand puts one back (seed 1730's white,
            # off the table in the break and held at the cushion it left
            # over, was placed in the D 146 frames later: the hand moving it
            # about kept the break open 24 frames), unless balls still roll:
            # no hand puts a ball back among them (seed 1822's black, hidden
            # on its spot by the player, its track taken to his dark sleeve
            # 590 mm off, was seen on its spot again while the white and a
            # red rolled at 5 mm a frame: the stroke was cut in two, and the
            # second half called a miss; seed 1730's white was put down as
            # a red crept its last 3 mm)
            if (k is None or (last.frame - seen[-1][0] > c.held_frames
                              and placed_by_hand(self.spec or OFFICIAL,
                                                 last.kinds[j], last.xy_mm[j]))
                    ) and not self._rolling(self._stroke[-ROLLING_ROWS - 1:-1]):
                return len(self._stroke) - 1, int(tid)
        return None

    def _rolling(self, frames: list[BallFrame]) -> bool:
        """Does a ball the stroke can have set moving (``_stirred``) roll over
        ``frames``: its first and last sightings there farther apart than
        ``moving_mm`` a frame?"""
        stirred = self._stirred()
        for tid in frames[-1].ids:
            if stirred is not None and int(tid) not in stirred:
                continue
            seen = _timed_sightings(frames, int(tid))
            if len(seen) > 1 and float(np.linalg.norm(seen[-1][1] - seen[0][1])) > (
                    self.config.moving_mm * (seen[-1][0] - seen[0][0])):
                return True
        return False

    def _gone_rolling(self, tid: int) -> bool:
        """The ball went from the frames (taken for potted by the tracker)
        less than ``lost_moving_s`` ago, rolling when last seen before it
        went: it may come back, as a ball rattling in a pocket's jaws is lost
        and found again (seed 992's white, lost at 31 mm a frame deep in a
        corner's jaws, came back out 10 frames later; the stroke had closed
        meanwhile, the white was called potted and its roll back out taken
        for a new stroke). Back, it keeps the stroke open until its sightings
        since can say whether it still moves."""
        return self._gone_from(self._recent(), tid) is not None

    def _gone_into_jaws(self, frames: list[BallFrame], tid: int) -> bool:
        """Did the ball go from ``frames`` (the stroke's last ``jaws_wait_s``)
        rolling, last seen in a corner pocket's jaws short of the fall? It
        may have stopped there unseen, and be found again (seed 1458's black,
        lost at 12 mm a frame into the top-right jaws, stopped there against
        the dark hole and was found again 63 frames after its last
        sighting; the stroke had closed at rest meanwhile, with the black
        potted). The stroke waits for it, and closes where the table came to
        rest if it is not found before anything else moves."""
        last = self._gone_from(frames, tid)
        return last is not None and self.spec is not None and (
            self.spec.in_corner_jaws((float(last[0]), float(last[1]))))

    def _gone_from(self, frames: list[BallFrame], tid: int) -> np.ndarray | None:
        """Where the ball was last seen, rolling, before it went from
        ``frames`` (seen, then not); None if it did not go, or went still."""
        gone = max((i for i, f in enumerate(frames)
                    if f.view and tid not in f.lookup), default=None)
        if gone is None or not self._rolling_in(frames[:gone], tid):
            return None
        return _sightings(frames[:gone], tid)[-1]

    def _struck_again(self) -> tuple[int, int, np.ndarray] | None:
        """Row of ``self._stroke`` where the cue ball, all but still over a rest
        window with every other ball still, set off again: its last
        ``STRUCK_STEPS`` steps, in as many frames and up to ``STRUCK_MISSED``
        more, each ``start_mm`` or more a frame on one line. Nothing
        on the table can have done that: the cue struck it, and a new stroke
        began (seed 846's white, stopped under the player's head as he came to
        address it, was read off by up to 10 mm for a second: taken to be
        moving, it held the break open, and the next stroke, a pot, was part of
        it; seed 865's, stopped by the top cushion, was read now at one place
        now at another 7 mm off). All but still: most of its readings (80%)
        lie within ``start_mm`` of one place, which is where it stopped: its
        last few readings may lie off it (seed 1482's three last, 5 mm off:
        the stroke seemed to roll on, and ended 32 frames late). ``(row, the
        cue ball's track id, (2,) mm that place)``; None when it did not."""
        c = self.config
        n = len(self._stroke)
        if self._stroke[-1].frame - self._begun < 2 * c.rest_frames:
            return None
        # (its last sightings, a frame or two missed among them as it sets off
        # blurred: seed 1482's, half hidden by the player addressing it and
        # read up to 12 mm off for a second, was missed twice as it left)
        tail = self._stroke[-(STRUCK_STEPS + 1 + STRUCK_MISSED):]
        rows = [n - len(tail) + i for i, f in enumerate(tail)
                if (w := f.white()) is not None and f.visible[w]]
        rows = rows[-(STRUCK_STEPS + 1):]
        if len(rows) < STRUCK_STEPS + 1 or rows[-1] != n - 1:
            return None
        k = rows[0] + 1
        if k - c.rest_frames < 1:
            return None
        pts = self._white_track([self._stroke[r] for r in rows])
        steps = np.diff(np.array(pts), axis=0)
        size = np.linalg.norm(steps, axis=1)
        if (size / np.diff(rows)).min() < c.start_mm or float(np.linalg.norm(
                steps.sum(axis=0))) < 0.9 * float(size.sum()):
            return None
        window = self._stroke[k - c.rest_frames:k]
        pts = self._white_track(window)
        if len(pts) < len(window) // 2:
            return None
        p = np.array(pts)
        place = np.median(p, axis=0)
        off = np.linalg.norm(p - place, axis=1)
        if float(np.percentile(off, 80)) > c.start_mm:
            return None  # (most of its readings within start_mm of one place)
        last = self._stroke[-1]
        wid = int(last.ids[last.white()])  # type: ignore[index]
        stirred = self._stirred()
        for tid in window[-1].ids:
            if stirred is not None and int(tid) not in stirred:
                continue
            if int(tid) != wid and (_moving(window, int(tid), c.still_mm)
                                    or self._lost_moving(int(tid))):
                return None
        return k, wid, place

    def _stirred(self) -> set[int] | None:
        """Track ids of the balls this stroke's motion can have reached
        (``_Stirring``); None when any may have moved (the view was lost
        meanwhile)."""
        if self._stirring is None or self._interrupted:
            return None
        return self._stirring.update(self._stroke)

    def _lost_moving(self, tid: int) -> bool:
        """The ball was rolling when last seen, less than ``lost_moving_s`` ago
        (hidden against a near cushion, say): it may still be moving."""
        return self._rolling_in(self._recent(), tid)

    def _recent(self) -> list[BallFrame]:
        """The stroke's last ``lost_moving_s`` of frames."""
        c = self.config
        span = round(c.lost_moving_s * c.fps)
        return self._stroke[-span:] if span >= 2 else []

    def _rolling_in(self, frames: list[BallFrame], tid: int) -> bool:
        """Was the ball rolling (faster than ``moving_mm`` a frame) between its
        last two sightings in ``frames``? False if seen fewer than twice. Seen
        once since it was lost for more than ``held_frames``, the chord over
        the gap says nothing of its speed now: it was rolling if it was when
        lost (seed 1638's green, lost at 8 mm a frame as it ran at the far
        top cushion of a broadcast view, was found 16 frames later 18 mm
        from its last sighting, rolling back at 3 mm a frame: the chord, 1.1
        mm a frame, read it as at rest, and its stroke ended 65 frames
        early)."""
        seen = _timed_sightings(frames, tid)[-3:]
        if len(seen) == 3 and seen[2][0] - seen[1][0] > self.config.held_frames:
            seen = seen[:2]
        if len(seen) < 2:
            return False
        (f0, p0), (f1, p1) = seen[-2:]
        return bool(np.linalg.norm(p1 - p0) / (f1 - f0) > self.config.moving_mm)

    def _close(self, last: int, places: dict[int, np.ndarray] | None = None
               ) -> StrokeTracks:
        """Emit the stroke in ``self._stroke[:last+1]`` and go back to rest;
        ``places``: see ``estimate_end``."""
        frames = self._stroke[: last + 1]
        stirred = self._stirred()
        tracks = _assemble(frames, self._rest, self._count, self._start,
                           self._start_conf, self._interrupted, self._in_hand)
        end = estimate_end(tracks, self.config, stirred, self.spec, places)
        self._count += 1
        self._back_to_rest(frames)
        return StrokeTracks(**{**tracks.__dict__, "end_frame": end})

    def _back_to_rest(self, frames: list[BallFrame]) -> None:
        """Go back to rest after the stroke's ``frames`` (emitted by
        ``_close``, or no stroke: ``_all_in_place``): the balls rest where
        its last frames have them (the median of each one's sightings over
        the rest window: a ball read jumping about its place, ``_jitter``,
        rests at neither reading; seed 1482's white, read 5 to 10 mm about by
        the player before the next strike, began that stroke a frame early;
        seed 3256's, read 11 to 20 mm off in depth in a third of the frames,
        had its place put 8 mm off by the median of four, every sighting at
        its true place then read as a start, and the stroke began 4 early)."""
        self._stirring = None
        self._at_rest, self._awaited = None, set()
        tail = frames[-self.config.rest_frames:]
        self._stroke = []
        self._interrupted = False
        self.phase = Phase.REST
        self._pre.clear()
        self._pre.extend(tail)
        self._rest = _Rest()
        self._gone = {}
        self._fresh = set()
        lastf = frames[-1]
        for j, tid in enumerate(lastf.ids):
            seen = _sightings(tail, int(tid))
            self._rest.xy[int(tid)] = (np.median(np.array(seen), axis=0) if seen
                                       else lastf.xy_mm[j].copy())
            self._rest.kind[int(tid)] = lastf.kinds[j]
        self._in_hand = lastf.white() is None


HAND_MM = 150.0
"""How far from the D a cue ball seen counts as in the hand that brings it back
there (``placed_by_hand``)."""


def placed_by_hand(spec: TableSpec, kind: str, xy: np.ndarray,
                   hand_mm: float = HAND_MM) -> bool:
    """Is a ball of ``kind`` seen at ``xy`` ((2,) mm, table frame) where a hand
    puts one back: the cue ball in hand in the D (seed Part 3 rule 5), or
    within ``hand_mm`` of it (seen in the hand that places it); a colour on
    a spot (Part 3 rule 7, re-spotting)? Reds are never put back."""
    x, y = float(xy[0]), float(xy[1])
    if kind == WHITE:
        return spec.in_d((x, y), hand_mm)
    if kind == "red":
        return False
    return min(math.hypot(x - sx, y - sy)
               for sx, sy in spec.spots.values()) <= spec.ball_radius


RUN_ON_COS = math.cos(math.radians(30.0))
"""A ball first seen off its place runs on from it when its next step lies
within 30 degrees of the line from its place (``StrokeSegmenter._left_hidden``):
not turned on the way by a cushion or another ball."""

UNSEEN_STRIKE_CONFIDENCE = 0.3
"""How sure the start of a stroke whose cue ball was not seen to leave its
place is (``StrokeSegmenter._struck_unseen``): the strike was earlier, by as
long as the cue ball took to reach the ball it set off."""

ROLLING_ROWS = 5
"""Rows over which a ball's speed says it still rolls (``StrokeSegmenter._rolling``)."""

STRUCK_STEPS = 3
"""Steps of the cue ball, each ``SegmenterConfig.start_mm`` or more a frame, that
show it struck again (``StrokeSegmenter._struck_again``)."""

STRUCK_MISSED = 2
"""Frames the cue ball may be missed among those steps."""


def _still_into(frames: list[BallFrame], i: int, still_mm: float) -> bool:
    """Was the cue ball, seen in ``frames[i]``, seen within ``still_mm`` of the
    same place in the frame before?"""
    if i == 0:
        return False
    a, b = frames[i - 1], frames[i]
    wa, wb = a.white(), b.white()
    if wa is None or wb is None or not a.visible[wa] or not b.visible[wb]:
        return False
    return bool(np.linalg.norm(b.xy_mm[wb] - a.xy_mm[wa]) < still_mm)


def _moving(window: list[BallFrame], tid: int, still_mm: float) -> bool:
    """The ball drifted over the window (medians of its sightings, four by four,
    differ from the last four's) or is still rolling at its end; identity jumps
    (> 150 mm a frame) are tracking noise, not motion, and so are readings
    jumping back and forth about one place (``_jitter``)."""
    pts = []
    frames = []
    for f in window:
        k = _index(f, tid)
        if k is not None and f.visible[k]:
            pts.append(f.xy_mm[k])
            frames.append(f.frame)
    if len(pts) < 6:
        return False
    p = np.array(pts)
    # per frame: a fast ball unseen for a few frames has not jumped
    steps = np.linalg.norm(np.diff(p, axis=0), axis=1) / np.maximum(
        np.diff(frames), 1)
    big = np.flatnonzero(steps > 150.0)
    for i in big[::-1]:
        around = np.concatenate([steps[max(0, i - 2):i], steps[i + 1:i + 3]])
        if len(around) and around.max() < 60.0:
            # an isolated jump: the track changed ball; what it reads since
            # says whether that ball moves (seed 3401's white, struck at 150
            # mm a frame into the black, slowed to 47 at once: that step, at
            # the window's start, was taken for a change of ball, the white
            # for at rest, and the stroke cut in two at its next contact)
            p, frames = p[i + 1:], frames[i + 1:]
            if len(p) < 6:
                return False
            break
    # the medians of its sightings four by four, against the last four's: one
    # back off a cushion can end where it began (seed 511's cue ball, back at
    # 2 mm a frame: first and last alike, the stroke closed while it rolled)
    b = np.median(p[-4:], axis=0)
    groups = [np.median(p[k : k + 4], axis=0) for k in range(0, len(p) - 4, 4)]
    drift = max(float(np.linalg.norm(g - b)) for g in groups) if groups else 0.0
    # still rolling at the end
    rolling = np.linalg.norm(p[-1] - p[-4]) > 2 * still_mm
    return bool(drift > still_mm or rolling) and not _jitter(p, frames, still_mm)


def _creeping(window: list[BallFrame], tid: int, still_mm: float) -> bool:
    """Is a ball seen too seldom over a rest window for ``_moving`` (3 to 5
    times) going steadily on: each sighting farther from the first, the last
    more than ``2 * still_mm`` from it? Seed 2648's white, slowing to a stop at
    2 mm a frame in a far corner of a broadcast view, seen in one frame of two
    or three, was taken to be at rest: its stroke closed 29 frames early."""
    pts = _sightings(window, tid)
    if not 3 <= len(pts) < 6:
        return False
    d = [float(np.linalg.norm(p - pts[0])) for p in pts[1:]]
    return bool(np.all(np.diff(d) > 0.0)) and d[-1] > 2 * still_mm


def _jitter(p: np.ndarray, frames: list[int], still_mm: float) -> bool:
    """Are a ball's sightings over a rest window (``p``: (K, 2) mm, table
    frame, at ``frames``) noise about one place rather than motion? So they
    are when they scatter about their straight-line fit by more than
    ``still_mm`` (``REST_NOISE_MAX_MM`` at most), the fit moves no farther than
    ``still_mm`` over the window, and its steps turn back more than they go
    on (a rolling ball's steps follow one another; a ball back off a cushion
    turns once). A far ball in a broadcast view, its outline cut by a nearer
    ball in the image, is read now at one place and now at another 10 mm off
    in depth: seed 2086's white, at rest at the far end beside a red, jumped
    between the two every frame or two for 40 frames; its stroke stayed open,
    took in the next, and the score went wrong (and seed 2070's, a dark part
    of the player at the far end taken for the black)."""
    if len(p) < 8:
        return False
    slope, noise, _ = line_fit(np.asarray(frames), p)
    if not still_mm < noise <= REST_NOISE_MAX_MM:
        return False
    steps = np.diff(p, axis=0)
    back_and_forth = float(np.sum(steps[1:] * steps[:-1])) < 0.0
    return back_and_forth and float(np.linalg.norm(slope)) * float(
        frames[-1] - frames[0]) <= still_mm


def line_fit(rows: np.ndarray, xy: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Straight-line fit of a ball's sightings ``xy`` ((K, 2) mm) against
    their ``rows`` ((K,)): its slope ((2,) mm a row), the readings' scatter
    about it (mm, per axis) and the slope's standard error (mm a row)."""
    t = rows - float(rows.mean())
    slope, centre = np.polyfit(t, xy, 1)
    off = xy - centre - np.outer(t, slope)
    noise = math.sqrt(float((off**2).sum()) / (2 * (len(rows) - 2)))
    return slope, noise, noise / math.sqrt(float((t**2).sum()))


def _sightings(frames: list[BallFrame], tid: int) -> list[np.ndarray]:
    """Where the ball was seen in ``frames``: (2,) mm each, in order."""
    return [xy for _, xy in _timed_sightings(frames, tid)]


def _strike_said(contacts: list[float]) -> float:
    """The fractional frame of a hidden cue ball's strike, from the times of
    its contacts with the balls it set off, each timed back (``contacts``:
    not empty): the earliest, or the second earliest where three or more say
    (one track misread in the pack's break may be timed far before the rest:
    seed 3436's, taken to have left its place 11 frames before the others,
    began the stroke 11 frames early)."""
    ordered = sorted(contacts)
    return ordered[1] if len(ordered) >= 3 else ordered[0]


def _timed_sightings(frames: list[BallFrame], tid: int
                     ) -> list[tuple[int, np.ndarray]]:
    """When and where the ball was seen in ``frames``: (frame, (2,) mm) each,
    in order."""
    return [(f.frame, f.xy_mm[k]) for f in frames
            if (k := f.lookup.get(tid)) is not None and f.visible[k]]


def _stayed(frames: list[BallFrame], tid: int, still_mm: float) -> bool:
    """The ball was seen in more than one of ``frames``, every time within
    ``still_mm`` of one place."""
    pts = _sightings(frames, tid)
    return len(pts) > 1 and max(
        float(np.linalg.norm(p - pts[0])) for p in pts) <= still_mm


def _seen_in(frames: list[BallFrame], tid: int) -> bool:
    """The ball was seen in one of ``frames``."""
    for f in frames:
        k = f.lookup.get(tid)
        if k is not None and f.visible[k]:
            return True
    return False


def _index(f: BallFrame, tid: int) -> int | None:
    return f.lookup.get(tid)


def _assemble(frames: list[BallFrame], rest: _Rest, index: int, start: int,
              start_conf: float, interrupted: bool, in_hand: bool) -> StrokeTracks:
    ids: list[int] = list(rest.xy)
    kinds: list[str] = [rest.kind[i] for i in ids]
    for f in frames:
        for j, tid in enumerate(f.ids):
            if int(tid) not in ids:
                ids.append(int(tid))
                kinds.append(f.kinds[j])
    col = {tid: j for j, tid in enumerate(ids)}
    t0 = frames[0].frame
    n_t = frames[-1].frame - t0 + 1
    xy = np.full((n_t, len(ids), 2), np.nan)
    vis = np.zeros((n_t, len(ids)), bool)
    conf = np.zeros((n_t, len(ids)), np.float32)
    for f in frames:
        r = f.frame - t0
        for j, tid in enumerate(f.ids):
            xy[r, col[int(tid)]] = f.xy_mm[j]
            vis[r, col[int(tid)]] = f.visible[j]
            conf[r, col[int(tid)]] = f.confidence[j]
    before = np.full((len(ids), 2), np.nan)
    for tid, p in rest.xy.items():
        before[col[tid]] = p
    return StrokeTracks(
        index, np.arange(t0, t0 + n_t, dtype=np.int64), np.array(ids, np.int64),
        tuple(kinds), xy, vis, before, start, frames[-1].frame, start_conf,
        interrupted, in_hand, conf,
    )


def estimate_end(tracks: StrokeTracks, config: SegmenterConfig,
                 moved: set[int] | None = None, spec: TableSpec | None = None,
                 places: dict[int, np.ndarray] | None = None) -> int:
    """First frame with every ball at rest.

    Only the balls of ``moved`` (track ids: those the stroke's motion can have
    reached, ``_Stirring``) are looked at; every ball when None. ``places``:
    resting places already known ((2,) mm by track id; else the median of a
    ball's last three sightings).

    For each ball that moved (a one-frame flicker of its track is not motion), a
    rolling ball decelerates evenly, so its speed over its last clear motion says
    when it stopped (``_roll_stop``); where that does not fit (it was stopped by a
    hit) the approach to its final place is fitted: the square root of the distance
    still to go falls linearly to zero at the stop. Potted balls stop when they
    vanish.
    """
    xy, vis = tracks.xy_mm, tracks.visible
    t_len = len(tracks.frames)
    s0 = tracks.row(tracks.start_frame)
    end = float(s0)
    tail = config.rest_frames
    for j in range(xy.shape[1]):
        seen = np.flatnonzero(~np.isnan(xy[:, j, 0]))
        if len(seen) == 0 or (moved is not None and int(tracks.ids[j]) not in moved):
            continue
        last = int(seen[-1])
        ok = vis[:, j] & ~np.isnan(xy[:, j, 0])
        if last < t_len - 1:
            # vanished (potted/off): stops at the first frame without it (the
            # tracker holds a ball lost a few frames before it calls it gone)
            shown = np.flatnonzero(ok)
            last = int(shown[-1]) if len(shown) else last
            if last >= s0:
                end = max(end, last + 1 + _to_the_fall(xy[:, j], shown, spec))
            continue
        fin_rows = np.flatnonzero(ok[t_len - tail:]) + t_len - tail
        hidden = len(fin_rows) == 0
        rolled_on = -math.inf
        if hidden:
            # hidden since before the closing rest (by the player come to the
            # table): its last sightings show where, and how, it stopped
            # (seed 1050's red, in sight rolling to a stop until its last
            # frame of motion, was left out: the stroke ended 32 frames early)
            # (one lost rolling on for longer than ``lost_moving_s`` is
            # lost: where and when it stopped, nothing here can say)
            fin_rows = np.flatnonzero(ok[s0:]) + s0
            if len(fin_rows) == 0:
                continue
            rolled_on = _rolled_on(xy[:, j], ok, config)
            if rolled_on - fin_rows[-1] > config.lost_moving_s * config.fps:
                # it moved until then, at least (seed 987's white, lost
                # rolling into a far corner's fall 5 frames before it
                # dropped, had its stroke end 15 frames early)
                end = max(end, float(fin_rows[-1]) + 1.0 + _to_the_fall(
                    xy[:, j], fin_rows, spec))
                continue
        # the last sightings (a stroke closed at a camera cut has a short rest),
        # unless the place is known (``places``)
        final = places.get(int(tracks.ids[j])) if places else None
        if final is None:
            final = np.median(xy[fin_rows[-3:], j], axis=0)
        dist = np.full(t_len, np.nan)
        dist[ok] = _despike(np.linalg.norm(xy[ok, j] - final, axis=1))
        dist[:s0] = np.nan
        still = (config.still_mm if hidden
                 else _rest_noise(xy[fin_rows, j], final, config))
        moving = np.flatnonzero(dist > still)
        settled = _settled(dist, config, still)
        if settled is not None:
            moving = moving[moving < settled]
        if len(moving) == 0:
            continue
        k_last = int(moving[-1])
        bounce = None if spec is None else _cushion_arrival(xy[:, j], ok, s0,
                                                            k_last, spec, config)
        since = bounce[0] if bounce is not None else (
            None if spec is None
            else _left_cushion(xy[:, j], ok, s0, k_last, final, spec, config))
        t_stop = _roll_stop(xy[:, j], ok, final, k_last, config, since=since,
                            spec=spec)
        if bounce is not None:
            # it came off the cushion at ``cushion_keep`` of its speed at
            # least, and rolled that to a stop: a rebound of a few mm the
            # tracker holds still (seed 1222's red struck the left cushion
            # at 1.8 mm a frame and rolled 4 mm back for 9 frames: the
            # stroke ended 6 early); with too little of the rebound seen
            # for its speed, its sightings after the bounce may still say
            # when (``_said_off_cushion``), that at the earliest (the fit of
            # the distance still to go, taken across the bounce, is not:
            # seed 1286's red, back off the left cushion at 0.5 mm a frame,
            # 6 frames late)
            rebound = _rebound_stop(*bounce, config)
            if t_stop is None:
                t_stop = _said_off_cushion(dist, ok, bounce[0], config)
            t_stop = rebound if t_stop is None else max(t_stop, rebound)
        elif t_stop is None:
            t_stop = _fit_stop(dist, k_last, config)
        if settled is not None and _ran_to_rest_at_a_ball(
                xy, j, final, k_last, (spec or OFFICIAL).ball_radius):
            # stopped by the ball it came to rest against, a kiss in its last
            # frames that no speed shows: a roll from its first sighting at
            # its resting place stops no later (seed 3421's white, at 1.2 mm a
            # frame into a red, stopped 4 frames before its roll said)
            t_stop = min(t_stop, settled + math.sqrt(
                2.0 * (still + SETTLED_SLACK_MM) / config.roll_decel))
        if hidden:
            t_stop = max(t_stop, rolled_on)
        end = max(end, t_stop)
    return int(tracks.frames[0] + min(math.ceil(end - 1e-6), t_len - 1))


def _ran_to_rest_at_a_ball(xy: np.ndarray, j: int, final: np.ndarray,
                           k_last: int, radius: float) -> bool:
    """Did ball ``j`` (of ``xy``: (T, N, 2) mm, NaN where gone) come to rest at
    ``final`` ((2,) mm) against another ball, within ``KISS_TOUCH_MM`` of
    touching where that ball was last, running at it: its way from its
    sighting 3 rows before its last clear motion (row ``k_last``) within 60
    degrees of the line to that ball's centre? (``radius``: mm.)"""
    others = np.delete(xy[-1], j, axis=0)
    others = others[~np.isnan(others[:, 0])]
    came = final - xy[max(k_last - 3, 0), j]
    if not len(others) or np.isnan(came[0]) or not came.any():
        return False
    to = others - final
    apart = np.linalg.norm(to, axis=1)
    i = int(np.argmin(apart))
    return bool(apart[i] <= 2.0 * radius + KISS_TOUCH_MM and float(came @ to[i])
                >= 0.5 * float(np.linalg.norm(came)) * float(apart[i]))


KISS_TOUCH_MM = 4.0
"""How far short of touching another ball a ball may come to rest and have been
stopped by it (``_ran_to_rest_at_a_ball``: the kissed ball creeps a few mm
off)."""

SETTLED_SLACK_MM = 1.0
"""How much farther off its resting place than ``still`` a ball first read
within ``still`` of it may have been (``_settled``; the readings' noise): a
roll from there stops within sqrt(2 (still + this) / deceleration) frames."""


def last_step(xy: np.ndarray, seen: np.ndarray, max_gap: int = 3,
              steps: int = 1) -> np.ndarray:
    """(2,) mm per row of a ball's last move (``xy``: (T, 2) mm; ``seen``: the
    rows it was seen in): from its sighting ``steps`` before the last, or
    fewer where two lie more than ``max_gap`` rows apart (a fast ball is often
    missed for a frame as it leaves); zero if there is none."""
    k = first = len(seen) - 1
    while first > 0 and k - first < steps and seen[first] - seen[first - 1] <= (
            max_gap):
        first -= 1
    if first == k:
        return np.zeros(2)
    return (xy[seen[k]] - xy[seen[first]]) / float(seen[k] - seen[first])


def _to_the_fall(xy: np.ndarray, shown: np.ndarray, spec: TableSpec | None
                 ) -> float:
    """Rows a ball lost from sight on its way into a pocket's fall
    (``xy``: (T, 2) mm; ``shown``: the rows it was seen in) still rolled before
    it dropped, at the speed of its last two sightings (0 without a table, or
    when its way misses every fall)."""
    step = last_step(xy, shown)
    speed = float(np.linalg.norm(step))
    if spec is None or speed <= 0.0:
        return 0.0
    run = spec.run_to_fall((float(xy[shown[-1], 0]), float(xy[shown[-1], 1])),
                           (float(step[0]), float(step[1])))
    return 0.0 if run is None else run / speed


HIDDEN_SIGHTINGS = 10
"""The last sightings of a ball hidden before it was seen at rest whose speed
says when it stopped (``_rolled_on``)."""


def _rolled_on(xy: np.ndarray, ok: np.ndarray, config: SegmenterConfig) -> float:
    """Fractional row where a ball hidden before it was seen at rest stopped,
    had it rolled on, slowing evenly, at the speed of its last sightings
    (``xy``: (T, 2) mm, ``ok``: (T,) seen); -inf when seen fewer than thrice."""
    rows = np.flatnonzero(ok)[-HIDDEN_SIGHTINGS:]
    if len(rows) < 3:
        return -math.inf
    tc = float(rows.mean())
    speed = float(np.linalg.norm(np.polyfit(rows - tc, xy[rows], 1)[0]))
    return tc + speed / config.roll_decel


REST_NOISE_PERCENTILE = 90.0
"""Percentile of a ball's readings' distances from its resting place, over the
closing rest window, that says how far its readings at rest lie off it
(``_rest_noise``)."""

REST_NOISE_MAX_MM = 10.0
"""Farthest a ball's readings at rest can lie off its place and be noise: a far
ball in a broadcast view is read up to 10 mm off in depth (seed 1058's white,
stopped at x 1722 mm, read now about 1720, now about 1730); farther, they are
misreads of another ball."""


def _rest_noise(rest: np.ndarray, final: np.ndarray, config: SegmenterConfig
                ) -> float:
    """How far (mm) a ball's sightings must lie from its resting place ``final``
    ((2,) mm) to show it still moving: ``still_mm``, or farther where its
    readings in the closing rest window (``rest``: (K, 2) mm) lie farther off
    it (``REST_NOISE_PERCENTILE``, ``REST_NOISE_MAX_MM`` at most; with at
    least ``settle_sightings`` of them). Seed 1058's white, at the far end of
    a broadcast view, was read jumping 10 mm in depth at rest: its stroke
    ended 17 frames late."""
    if len(rest) < config.settle_sightings:
        return config.still_mm
    off = np.linalg.norm(rest - final, axis=1)
    noise = float(np.percentile(off, REST_NOISE_PERCENTILE))
    return max(config.still_mm, min(noise, REST_NOISE_MAX_MM))


JUMP_SHARE = 2.0
"""Sightings of a ball off its resting place between two spells at it, all
this many times its rest noise or farther off, are a jump of its readings, not
motion (``_settled``)."""


def _settled(dist: np.ndarray, config: SegmenterConfig, still: float) -> int | None:
    """The row from which a ball's sightings first lie at its resting place,
    ``settle_sightings`` in a row within ``still`` mm (``dist``: mm from it, NaN
    where unseen; ``_rest_noise``), or None. A ball cannot leave its resting
    place and come back to it: sightings off it after that are misreads (seed
    606's white, read 25 mm off against a neighbour now and then for 11 frames
    after it stopped). So are all those after two in a row at it, when every
    one lies ``JUMP_SHARE * still`` or farther off (none on a way back) and
    the last no nearer than the first, by half of ``still`` (not closing in):
    seed 2812's white, stopped near the far end of a broadcast view and read
    now at its place, now 7-10 mm off in depth, was taken to settle only
    after the last jump, its end 14 frames late. (Seed 2239's ball, sliding
    back to its place after an excursion, came there over readings nearer;
    seed 2098's crept back from 17 mm off, its two readings at the place
    before misreads.)"""
    rows = np.flatnonzero(~np.isnan(dist))
    m = config.settle_sightings
    if len(rows) < m:
        return None
    near = (dist[rows] <= still).astype(np.int64)
    runs = np.flatnonzero(np.convolve(near, np.ones(m, np.int64), "valid") == m)
    if not len(runs):
        return None
    for p in np.flatnonzero(near[:-1] & near[1:]):
        if p >= runs[0]:
            break
        off = dist[rows[p:runs[0]]][near[p:runs[0]] == 0]
        if np.all(off >= JUMP_SHARE * still) and off[-1] >= off[0] - still / 2:
            return int(rows[p])
    return int(rows[runs[0]])


def _despike(d: np.ndarray) -> np.ndarray:
    """Median of three consecutive sightings (the lesser of two at the ends): a
    one-frame flicker or jump of the track is not motion."""
    if len(d) < 2:
        return d
    pad = np.concatenate([[-np.inf], d, [-np.inf]])
    return np.median(np.lib.stride_tricks.sliding_window_view(pad, 3), axis=1)


def _roll_stop(xy: np.ndarray, ok: np.ndarray, final: np.ndarray, k_last: int,
               config: SegmenterConfig, since: int | None = None,
               spec: TableSpec | None = None) -> float | None:
    """Fractional row where a rolling ball stopped, from its speed.

    A rolling ball slows at the cloth's rolling deceleration, so its speed over
    the last ``stop_window`` frames of clear motion says when it stops, even when
    the tracker held it still over the last millimetres of creep. ``None`` when
    the speed does not fit a roll to the place it stopped (it was stopped by a
    ball or a cushion), or when there are too few sightings for a speed and
    their distances from that place do not agree on when a roll there stops.
    Only sightings after row ``since`` count, when given: where the ball
    arrived at a cushion, which slowed it (``_cushion_arrival``; seed 1273's
    white ran into the bottom cushion at 1.6 mm a frame, 40 degrees off
    square, and slid 3 mm along it; its speed before said it rolled on 3
    frames past its stop). A ball read far more noisily along one axis than
    the other is timed by a roll fit to its sightings (``_roll_fit``; ``spec``:
    the table), where that fit stands.
    """
    first = max(0, k_last - config.stop_window, -1 if since is None else since + 1)
    fitted = _roll_fit(xy, ok, final, first, k_last, config, spec)
    if fitted is not None:
        return fitted
    rows = np.arange(first, k_last + 1)
    rows = rows[ok[rows]]
    # the window may open with the ball still at rest (set moving by a hit): fit
    # from where it last left (the tracker may have nudged its place at rest
    # by half a millimetre or so: seed 3166's red, at rest till 1 mm a frame
    # of creep in the window's last 5 frames, was timed across its rest from
    # such a nudge, 6 frames early); the tracker's holds of a creeping ball,
    # four frames at most, are no rest
    drift = np.linalg.norm(xy[rows[4:]] - xy[rows[:-4]], axis=1)
    if len(drift) and not np.any(drift >= HELD_DRIFT_MM):
        # held still through the window, then set at its resting place in one
        # step: the tracker moved its place there, and no roll was seen to
        # time (seed 3240's pink, touched by the white, read creeping 5 mm
        # off its place while the tracker held it there, was moved there
        # after; timed from the window's middle, its stroke ended 4 early)
        return None
    still = np.flatnonzero(drift < HELD_DRIFT_MM)
    rest = int(still[-1]) + 1 if len(still) else 0
    if rest:
        rows = rows[rest + 3:]
        # its place at rest is no start where the track leapt from it, the ball
        # held there while it already rolled (seed 1224's brown, struck by the
        # white and held 8 frames against it, then 23 mm off at once: the fit
        # across the leap found it too fast to roll to its place, and the
        # stroke ended 3 early)
        if len(rows) >= 3 and _leapt(xy[rows[:3]], rows[:3], config):
            rows = rows[1:]
    # nor before it last turned towards its resting place (off a cushion:
    # seed 600's white came back off the side cushion at 2 mm a frame; the fit
    # across the bounce found it all but still, and the stroke ended 15 frames
    # early): back from the last sighting while each is no nearer that place
    # than the next (give or take the measurement's noise; a one-frame jump
    # of a far ball's reading is no turn, nor is one sighting nearer: two in a
    # row are; seed 1316's white, one reading of a far broadcast roll 2 mm
    # nearer, was timed from its last 5 sightings: 6 frames early), and while
    # its way there led to that place: a ball that ran at a cushion and came
    # back slowly along its way nears its resting place on the way in too
    # (seed 721's white; the fit across the bounce found it all but still: 6
    # frames early)
    # (each sighting's distance from the resting place, mm; despiked: ``gone``)
    apart = np.linalg.norm(xy[rows] - final, axis=1)
    gone = _despike(apart)
    way = np.stack([_despike(xy[rows, 0]), _despike(xy[rows, 1])], axis=1)
    k = len(rows) - 1
    far = gone[k] if len(rows) else 0.0
    tol = 0.5 * config.still_mm
    while k > 0 and (gone[k - 1] >= far - tol or (k > 1 and gone[k - 2] >= far - tol)
                     ) and (k < 3 or _towards(way[k - 2], way[k], final, config)):
        k -= 1
        far = max(far, float(gone[k]))
    rows, apart = rows[k:], apart[k:]
    decel = config.roll_decel
    if len(rows) < 6:
        # too few to fit a speed to: a short roll back off a cushion still
        # says when it stops from how far it had to go, where every sighting
        # says the same (seed 1121's brown, back off the cushion at 1.3 mm a
        # frame 13 frames before it stopped; the fit across the bounce ended
        # its stroke 4 late); readings that jump about a far ball, or a ball
        # stopped by a hit, do not
        said = _said_stop(rows, gone[k:], config, SAID_ALIKE_FRAMES)
        if said is None and rest and k == 0 and len(rows) >= 3:
            # set off from rest a few frames before its last clear motion (a
            # touched ball's creep, mostly within ``still_mm`` of where it
            # rests): how far each sighting from its last at rest on was from
            # there says it, the first one's not cut by the despiking (seed
            # 3240's pink, touched by the white, crept 5.5 mm at 0.9 mm a
            # frame and down; its stroke ended 7 frames early)
            return float(np.median(_roll_stops(rows, apart, decel)))
        return said
    tc = float(rows.mean())
    slope, centre = np.polyfit(rows - tc, xy[rows], 1)
    speed = float(np.linalg.norm(slope))
    left = float(np.linalg.norm(final - centre))
    if speed**2 / (2 * decel) > left + 3 * config.still_mm:
        # faster than a roll to its resting place: stopped by a hit, or
        # slowed by one and then rolled on to it, which its last sightings
        # say alike (seed 2565's red, kissed from 2.9 to 1.3 mm a frame 4
        # frames before its last clear motion, 12 before it stopped: the fit
        # of the distance still to go had it stop 4 frames early)
        return _said_stop(rows[-KISS_TAIL:], gone[-KISS_TAIL:], config,
                          KISS_ALIKE_FRAMES)
    stop = tc + speed / decel
    # and from how far it still had to go: at the rolling deceleration a ball
    # d mm from its resting place stops sqrt(2 d / decel) frames on; the two
    # say it apart (the fit's speed lags where the ball still slid off a
    # cushion or a ball, the distances lead where the tracker held its creep
    # in steps: seed 966's white, 3 frames early by its speed alone)
    use = apart >= 2 * config.still_mm
    if use.sum() >= 3:
        stop = 0.5 * (stop + float(np.median(_roll_stops(rows[use], apart[use],
                                                         decel))))
    # slowed at once by a light hit on the way (a kiss): the later half's speed
    # is lower than the roll says by more than ``KISS_FRAMES`` of rolling
    # deceleration, and by more than the readings' noise can put it off
    # (``KISS_ERRORS`` of its standard error), and that half alone says when it
    # stopped (seed 801's red, 5.4 to 2.0 mm a frame 17 frames before it
    # stopped, was stopped 4 late; seed 1398's white, read 1-3 mm off on its
    # last 1.8 mm a frame, seemed kissed and was stopped 5 early)
    late = rows[len(rows) // 2:]
    if len(late) >= 6:
        tl = float(late.mean())
        slope_l, _, error = line_fit(late, xy[late])
        v_late = float(np.linalg.norm(slope_l))
        if v_late < speed - decel * (tl - tc + KISS_FRAMES) - KISS_ERRORS * error:
            return min(stop, tl + v_late / decel)
    return stop


HELD_DRIFT_MM = 0.75
"""Most a ball's track may move over four frames and still be at rest
(``_roll_stop``): the tracker nudges the place of a ball it holds at rest by
just over half a millimetre at a time (``BallTracker._refine_anchor``); at
0.5, seed 3166's red, nudged 0.502 mm, was taken to leave its place there,
and its stroke ended 4 frames early, where its rows as ``tracks.csv`` rounds
them, 0.496 mm, ended it a frame early: the run and the replay of its tracks
differed."""

CUSHION_TOUCH_MM = 5.0
"""Sightings of a ball within this of where it touches a cushion are at it
(``_cushion_arrival``)."""

REBOUND_SPEED_MM = 4.0
"""Fastest a ball may strike a cushion, mm a frame, for its rebound to be taken
as too short to see (``_cushion_arrival``)."""

ARRIVAL_SHARE = 0.25
"""Least share of its speed at which a ball must run into a cushion for its
sightings' reaching it to be an arrival (``_cushion_arrival``)."""

REBOUND_NEAR_FRAMES = 4
"""Most frames a ball's arrival at a cushion may lie from its last clear motion
for it to have ended there (``_cushion_arrival``; 10 put seed 1050's fourth stroke's
end 5 frames late, where the rebound had been seen)."""


def _cushion_arrival(xy: np.ndarray, ok: np.ndarray, s0: int, k_last: int,
                     spec: TableSpec, config: SegmenterConfig
                     ) -> tuple[int, float, float] | None:
    """``(row, speed, gap)``: where a ball whose last clear motion ended at a
    cushion arrived there, how fast (mm a frame; ``REBOUND_SPEED_MM`` at
    most) and how far short of touching it along its way (mm); None where it
    did not, or where its roll ended before it touched the cushion (seed
    1420's green, 4 mm from the cushion at 0.9 mm a frame, stopped as it
    touched it: 3 frames early, taken to come back off it from where it
    arrived).

    ``xy``: (T, 2) mm; ``ok``: (T,) seen; ``s0``: the stroke's first row;
    ``k_last``: the row of its last clear motion.
    """
    rows = np.flatnonzero(ok[s0:]) + s0
    if len(rows) < 4:
        return None
    per_axis = _cushion_gaps(xy[rows], spec)
    gap = per_axis.min(axis=1)
    k = _last_arrival(gap, rows, k_last + REBOUND_NEAR_FRAMES)
    if k is None or k_last - int(rows[k]) > REBOUND_NEAR_FRAMES:
        return None
    before = rows[max(0, k - 5):k + 1]
    before = before[before >= rows[k] - 8]
    if len(before) < 3:
        return None
    v = np.polyfit(before - before.mean(), xy[before], 1)[0]
    speed = float(np.linalg.norm(v))
    a = int(np.argmin(per_axis[k]))
    into = float(np.sign(xy[rows[k], a]) * v[a])
    if speed > REBOUND_SPEED_MM or into < ARRIVAL_SHARE * speed or into <= 0.0:
        return None
    way = float(gap[k]) * speed / into
    if speed**2 <= 2 * config.roll_decel * way:
        return None  # its roll ends short of the cushion
    return int(rows[k]), speed, way


def _cushion_gaps(xy: np.ndarray, spec: TableSpec) -> np.ndarray:
    """(K, 2) mm: how far balls at ``xy`` ((K, 2) mm, table frame) are short of
    touching the end cushion (column 0) and the side cushion (column 1) they
    are nearer."""
    return np.asarray(spec.touch_limits) - np.abs(xy)


def _last_arrival(gap: np.ndarray, rows: np.ndarray, by: int) -> int | None:
    """Index into ``rows`` (a ball's sightings, ``gap``: mm short of touching
    the nearest cushion at each) of its last arrival at a cushion by row
    ``by`` (not after: seed 1337's brown, held 4.8 mm off the cushion it had
    come back from, was read once 5.4 mm off, and that "arrival", 9 frames
    on, hid the one before): within ``CUSHION_TOUCH_MM`` of touching it,
    three sightings after one off it (not readings of a ball at rest by it
    that stray off it and back: seed 1297's white, the cue's tip beside it),
    or None."""
    at = np.flatnonzero(np.abs(gap) <= CUSHION_TOUCH_MM)
    at = at[(at >= 3) & (gap[np.maximum(at - 3, 0)] > CUSHION_TOUCH_MM)
            & (rows[at] <= by)]
    return int(at[-1]) if len(at) else None


def _left_cushion(xy: np.ndarray, ok: np.ndarray, s0: int, k_last: int,
                  final: np.ndarray, spec: TableSpec, config: SegmenterConfig
                  ) -> int | None:
    """Row of a ball's last arrival at a cushion before its last clear motion
    (``k_last``), from which it came back to rest at ``final`` (mm), farther
    off that cushion by more than twice ``still_mm``, or None: its roll to a
    stop began there (not one that stayed by it: seed 2098's white, at rest
    in a corner's jaws). The distances to its resting place cannot tell where a
    ball that ran at a cushion past that place turned (seed 2317's black, in
    at 2.8 mm a frame, back out at 1.7: its way in, about 10 mm off its
    resting place, was fitted with the roll out, and its stroke ended 5
    frames late)."""
    rows = np.flatnonzero(ok[s0:k_last]) + s0
    if len(rows) < 4:
        return None
    per_axis = _cushion_gaps(xy[rows], spec)
    gap = per_axis.min(axis=1)
    k = _last_arrival(gap, rows, k_last - 1)
    if k is None:
        return None
    a = int(np.argmin(per_axis[k]))
    back = float(_cushion_gaps(final[None], spec)[0, a] - gap[k])
    return int(rows[k]) if back > 2 * config.still_mm else None


def _said_off_cushion(dist: np.ndarray, ok: np.ndarray, row: int,
                      config: SegmenterConfig) -> float | None:
    """Fractional row where a ball that arrived at a cushion on ``row`` stopped,
    from how far from its resting place (``dist``: (T,) mm, despiked; ``ok``:
    (T,) seen) its sightings after were, down to ``REBOUND_NEAR_MM``: those
    within ``still_mm`` of it count here, where the rebound's speed is too
    little for more of them to lie off it (seed 3384's white, back off the left
    cushion at 1.2 mm a frame, had three sightings more than 3 mm off its rest;
    the rebound at ``cushion_keep`` ended its stroke 4 frames early, where its
    next three, 2.2 to 2.6 mm off, agreed on the frame). None where they do
    not agree (``_said_stop``)."""
    rows = np.flatnonzero(ok[row + 1 :]) + row + 1
    near = np.flatnonzero(dist[rows] < REBOUND_NEAR_MM)
    rows = rows[: near[0]] if len(near) else rows
    return _said_stop(rows, dist[rows], config, SAID_ALIKE_FRAMES)


REBOUND_NEAR_MM = 1.0
"""Nearest its resting place a sighting of a ball back off a cushion counts
for when it stopped (``_said_off_cushion``)."""


def _rebound_stop(row: int, speed: float, gap: float, config: SegmenterConfig
                  ) -> float:
    """Fractional row where a ball that arrived at a cushion (within
    ``CUSHION_TOUCH_MM`` of touching it, ``gap`` mm short along its way, on
    ``row``, at ``speed`` mm a frame, enough to reach it) stopped: rolling on
    to touch it, then back off it at ``cushion_keep`` of its speed there."""
    decel = config.roll_decel
    at_touch = math.sqrt(speed**2 - 2 * decel * max(gap, 0.0))
    return row + (speed - at_touch) / decel + config.cushion_keep * at_touch / decel


LEAP_SHARE = 2.0
"""How many times its next step a ball's first step off its place at rest must
be (by more than ``still_mm`` too) for the track to have leapt (``_leapt``)."""


def _leapt(xy: np.ndarray, rows: np.ndarray, config: SegmenterConfig) -> bool:
    """Did a track leap from a place at rest (``xy``: (3, 2) mm at ``rows``, the
    place then its first two sightings off it): its first step, per frame, far
    longer than the next (a struck ball slows by far less in a frame)?"""
    gaps = np.maximum(np.diff(rows), 1)
    steps = np.linalg.norm(np.diff(xy, axis=0), axis=1) / gaps
    return bool(steps[0] > LEAP_SHARE * steps[1] + config.still_mm)


ROLL_FIT_CHI2 = 8.0
"""Most a roll fit's squared residuals, each over its axis's noise, may be per
degree of freedom for the fit to stand (``_roll_fit``: 0.2 to 6.6 in the
fits looked at that put the stop right, seeds 2906, 3064, 3074 and 3082's
among them; 105 for seed 452's cue ball, turned in the window by a corner's
jaws)."""

ROLL_FIT_SPREAD = 2.0
"""How many times as far along one axis of the table as along the other a
ball's readings must scatter as it rolls for ``_roll_fit`` to time its stop
(readings that scatter alike are timed as well by their distances from its
resting place: with the fit for every ball, 375 of the 520 stroke ends of 104
clips fell on the truth's frame against 394, and 507 within 2 frames against
506)."""

ROLL_FIT_BACK = 5
"""Frames before a ball's last clear motion from which ``_roll_fit`` looks for
its stop (that motion may be a misread)."""

ROLL_FIT_STEP = 0.1
"""Spacing, in frames, of the stops ``_roll_fit`` tries."""

ROLL_FIT_WAYS = 360
"""Directions of the roll ``_roll_fit`` tries (one a degree)."""

NOISE_FLOOR_MM = 0.3
"""Least noise ``_axis_noise`` gives an axis: a ball the tracker held still
reads the same every frame, and a fit weighted by no scatter at all would rest
on that axis alone."""

NOISE_TRIPLES = 5
"""Fewest runs of three sightings in consecutive rows that give ``_axis_noise``."""


def _axis_noise(xy: np.ndarray, rows: np.ndarray) -> np.ndarray | None:
    """(2,) mm: how far a ball's readings ``xy`` ((T, 2) mm, table frame) at
    ``rows`` scatter along each axis of the table, from the second differences
    of sightings in consecutive rows (a roll changes its step by 0.1 mm a frame,
    far less; a hit or a turn is an outlier to the median absolute deviation);
    ``NOISE_FLOOR_MM`` at least; None with fewer than ``NOISE_TRIPLES`` runs."""
    gaps = np.diff(rows)
    k = np.flatnonzero((gaps[:-1] == 1) & (gaps[1:] == 1))
    if len(k) < NOISE_TRIPLES:
        return None
    second = xy[rows[k + 2]] - 2.0 * xy[rows[k + 1]] + xy[rows[k]]
    mad = np.median(np.abs(second - np.median(second, axis=0)), axis=0)
    # (the second difference of three readings scatters sqrt(6) times as much)
    return np.maximum(1.4826 * mad / math.sqrt(6.0), NOISE_FLOOR_MM)


def _roll_fit(xy: np.ndarray, ok: np.ndarray, final: np.ndarray, first: int,
              k_last: int, config: SegmenterConfig, spec: TableSpec | None = None
              ) -> float | None:
    """Fractional row where a ball read far more noisily along one axis of the
    table than along the other stopped, rolling straight to ``final`` ((2,)
    mm) at the cloth's rolling deceleration: the stop and the way that best fit
    its sightings from row ``first`` on, those at rest included, each axis's
    residuals weighted by that axis's noise as it rolled (``_axis_noise`` up
    to ``k_last``, the row of its last clear motion).

    None where its readings scatter alike along both (by less than
    ``ROLL_FIT_SPREAD`` times), where the fit does not stand
    (``ROLL_FIT_CHI2``: not a roll, or a turn within the window), where it
    came to rest in a corner's jaws (``spec``: the table; turned by them in
    the window: seed 786's white, off the jaws 17 frames before it stopped,
    was fitted with its way in and stopped 4 frames early), or with too few
    sightings.

    ``xy``: (T, 2) mm, table frame; ``ok``: (T,) seen. A far ball in a
    broadcast view is read several times as far off in depth as across, and
    its distances from its resting place, which the other estimates go by,
    are swamped by that noise: seed 3086's white, read up to 8 mm off in depth
    and under 1 mm across as it rolled to a stop near the far end, had its
    stroke end 5 frames late; seed 3064's, near the near end, 7 late.
    """
    if spec is not None and spec.in_corner_jaws((float(final[0]), float(final[1]))):
        return None
    rows = np.flatnonzero(ok[first:]) + first
    if len(rows) < 6:
        return None
    # (read at rest, one image over and over, it scatters less)
    noise = _axis_noise(xy, rows[rows <= k_last])
    if noise is None or float(noise.max()) < ROLL_FIT_SPREAD * float(noise.min()):
        return None
    # (its last reading off its resting place by more than ``still_mm`` may
    # be a misread: the depth readings scatter farther than that; after it,
    # within ``REST_NOISE_MAX_MM`` of that place, it rolled 14 frames at most)
    stops = np.arange(k_last - ROLL_FIT_BACK,
                      min(k_last + config.stop_window, len(xy) - 1) + 1e-9,
                      ROLL_FIT_STEP)
    stop, cost = _best_roll(xy, rows, final, 1.0 / noise**2, stops,
                            config.roll_decel)
    if cost / (2 * len(rows) - 2) > ROLL_FIT_CHI2:
        return None
    return stop


def _best_roll(xy: np.ndarray, rows: np.ndarray, final: np.ndarray,
               weight: np.ndarray, stops: np.ndarray, decel: float
               ) -> tuple[float, float]:
    """``(stop, cost)``: of ``stops`` ((S,) fractional rows), the one at which a
    straight roll at ``decel`` (mm a row squared), its way the best of
    ``ROLL_FIT_WAYS``, ending at ``final`` ((2,) mm) fits the sightings at
    ``rows`` of ``xy`` ((T, 2) mm) best, and the sum of its squared residuals,
    each axis's times its ``weight`` ((2,) 1/mm^2)."""
    # how far a roll stopping at each stop still had to go at each sighting
    to_go = 0.5 * decel * np.maximum(stops[:, None] - rows, 0.0) ** 2
    short = final - xy[rows]  # (K, 2) how far each sighting was short of it
    angle = np.linspace(0.0, 2.0 * math.pi, ROLL_FIT_WAYS, endpoint=False)
    ways = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    # the weighted squared residuals of ``short - way * to_go``, for each way
    # (rows) and stop (columns)
    cost = (float((weight * short**2).sum())
            - 2.0 * (ways * weight) @ (short.T @ to_go.T)
            + ((ways**2) @ weight)[:, None] * (to_go**2).sum(axis=1)[None, :])
    way, stop = np.unravel_index(int(np.argmin(cost)), cost.shape)
    return float(stops[stop]), float(cost[way, stop])


def _roll_stops(rows: np.ndarray, far: np.ndarray, decel: float) -> np.ndarray:
    """Fractional rows at which a ball ``far`` mm (per row of ``rows``) from its
    resting place stops, rolling there at the deceleration ``decel`` (mm a row
    squared): ``sqrt(2 far / decel)`` rows on."""
    return rows + np.sqrt(2 * far / decel)


SAID_ALIKE_FRAMES = 3.0
"""Most by which the stops said by a short roll's sightings may differ for them
to be taken (``_roll_stop``)."""

KISS_TAIL = 4
"""Last sightings of a ball too fast over its roll's window to roll to its
resting place whose distances from it may still say when it stopped
(``_roll_stop``: a kiss on the way slowed it)."""

KISS_ALIKE_FRAMES = 1.0
"""Most by which the stops said by those sightings may differ: they say one
stop only where the ball rolled there (a ball slowing three times as fast, not
rolling, is said to stop 0.7 frames sooner by each sighting than the one
before)."""


def _said_stop(rows: np.ndarray, far: np.ndarray, config: SegmenterConfig,
               alike: float) -> float | None:
    """The fractional row at which a ball stopped, from how far from its
    resting place its sightings at ``rows`` were (``far``, mm: despiked), where
    at least three lie off it, they near it, and the stops a roll from each
    says (``_roll_stops``) agree within ``alike`` frames; else None (readings
    that jump about a far ball, or a ball stopped by a hit)."""
    said = _roll_stops(rows, far, config.roll_decel)
    nearing = int((far > config.still_mm).sum()) >= 3 and float(
        far[-1]) <= float(far.max()) - 0.5 * config.still_mm
    if nearing and float(np.ptp(said)) <= alike:
        return float(np.median(said))
    return None

KISS_FRAMES = 3
"""Frames of rolling deceleration by which a ball's speed over the later half of
its last motion must fall short of the whole's to show a kiss (``_roll_stop``)."""

KISS_ERRORS = 2.0
"""Standard errors of the later half's speed (from its readings' scatter) by
which it must fall short too (``_roll_stop``)."""


def _towards(a: np.ndarray, b: np.ndarray, final: np.ndarray,
             config: SegmenterConfig) -> bool:
    """Does the way from ``a`` to ``b`` (mm), if longer than twice ``still_mm``
    (the readings' noise), head for ``final`` (within 60 degrees)?"""
    step = b - a
    n = float(np.linalg.norm(step))
    if n <= 2 * config.still_mm:
        return True
    to = final - a
    return float(step @ to) >= 0.5 * n * float(np.linalg.norm(to))


def _fit_stop(dist: np.ndarray, k_last: int, config: SegmenterConfig) -> float:
    """Fractional row where a decelerating ball stopped (see ``estimate_end``)."""
    lo = max(0, k_last - 12)
    rows = np.arange(lo, k_last + 1)
    d = dist[rows]
    good = ~np.isnan(d) & (d > config.still_mm) & (d < 300.0)
    if good.sum() >= 3:
        rows, d = rows[good], d[good]
        a, b = np.polyfit(rows.astype(float), np.sqrt(d), 1)
        if a < 0:
            t = -b / a
            if k_last < t < k_last + 15:
                return float(t)
    return float(k_last + 1)
