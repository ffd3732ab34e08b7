"""One track per ball: Kalman motion, assignment, and the snooker constraints.

Each track carries a fixed kind. Tracks are matched to detections with
``scipy.optimize.linear_sum_assignment`` on a cost of Mahalanobis distance (constant
velocity Kalman filter, table mm) plus the detection's disbelief in the track's kind.
New balls are given kinds by an assignment to the free "slots" (one white, one of
each colour, at most 15 reds).

Balls at rest are *anchored*: a ball that came to rest is reported at its anchor
while detections stay near it (a ball half hidden by a hand or the cue gives
centres that jitter by a radius), and while it is not seen. It is released only
on strong, consistent evidence of motion: detections moving steadily away from
the anchor along one line, beyond what an occluder can do. The detections that
showed the motion are handed back (``Release``) so that a caller that delays its
output a few frames can put the ball where it really was (``vision.pipeline``).

A track never jumps to another ball's place: a new detection starts a track, or
takes over a hidden one, only when it is sure of its kind, away from every other
ball, seen in the same place over several frames, and not while that ball was
seen elsewhere; a ball lost moving into a pocket's mouth is potted (its track
ends there), and a potted colour seen again on its spot (re-spotted) gets its old
track back. A ball lost while moving (the break's blurred cue ball) is
re-acquired by the next sure detection of its kind that it can have reached
(``BallTracker._reacquire``); one lost mid-table is held where last seen, never
potted; one "potted" but seen again where it vanished (stopped in the jaws) gets
its track back. A ball at rest is released only by a run of sightings that keeps
going (a hand read as the cue ball, far from it, barely moves); one that nothing
seen can have struck, only by sightings sure of its kind or by a fast, blurred
run (a hand or the cue over it, read unsure, moves slowly); and a detection far
from its anchor does not count as seeing it there. Two balls at rest, each
read surely as the other's kind time after time, while nothing moves, trade
tracks (``BallTracker._trade_misread``): a pair swapped in a crowd.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.table import TableSpec
from rules.geometry import segment_distance
from vision.detect import CUT_MARGIN
from vision.detections import Detections
from vision.kinds import KINDS, MAX_COUNT, NONE_CLASS, BallKind
from vision.strokes import SegmenterConfig

INF = 1e6
OVERLAP_SHARE = 0.9
"""Two balls whose image discs lie nearer than this share of their radii's sum
overlap (one hides part of the other); touching balls seen from above do not."""

CREEP_STEPS = 4
"""Last sightings near a touched ball's place whose every step goes farther
from it by ``creep_step_mm`` or more show it creeping off (``_creeping``)."""

CREEP_FIT_SIGHTINGS = 5
"""Last sightings near a touched ball's place on whose line fit ``_creeping``
also tells a creep read with noise (``_fits_away``)."""

CREEP_FIT_SPEED_MM = 0.5
"""Least speed, mm a frame, of that fit for a creep."""

CREEP_FIT_ERRORS = 5.0
"""Least length of that speed, in its standard errors (each axis's from the
fit's own residuals), for a creep rather than the readings' scatter."""

CREEP_FIT_NOISE_MM = 0.3
"""Least scatter the fit's residuals are taken to have along an axis: a ball
read the same in successive frames is no surer than its pixels."""


TAKEN_SHARE = 0.25
"""A detection with less than this share of its probability left once the
colours seen elsewhere are struck out is one of those, read twice: it starts no
track of another kind (``BallTracker._birth_kind``)."""


JAWS_RUN_MM = 3.0
"""Least step farther from where it was lost, mm a frame, of unsure sightings
in a pocket's jaws that show a ball lost there running on
(``BallTracker._moving_on_in_jaws``)."""

JAWS_RUN_FRAMES = 3
"""Frames in a row of such sightings that show it (``JAWS_RUN_MM``)."""


class TrackStatus(StrEnum):
    """Where a tracked ball is."""

    SEEN = "seen"
    HIDDEN = "hidden"
    POTTED = "potted"


@dataclass
class Track:
    """A tracked ball (mutable, owned by the tracker).

    Attributes:
        track_id: Positive id, unique in the clip.
        kind: The ball's kind.
        state: (4,) float64 Kalman state x, y (mm), vx, vy (mm per frame).
        cov: (4, 4) float64 state covariance.
        status: Seen, hidden or potted.
        xy_px: (2,) float64 last image position, px.
        radius_px: Last image radius, px.
        confidence: Last detection's probability of ``kind`` (0-1).
        missed: Frames since last seen.
        meas_mm: (2,) float64 last measured position, table mm (the detection,
            not the filter: a ball that stops dead is not carried on by the
            filter's velocity), or None before the first.
        anchor: (2,) float64 rest place of a ball at rest, table mm; None while
            it moves.
        pending: ``(frame, (2,) mm)`` detections away from the anchor that may be
            the start of a motion.
        recent: The last few measurements (to see a moving ball settle).
        near_pocket: Nearest a pocket the ball came while lost, mm.
        near: ``(frame, (2,) mm)`` the last few detections near the anchor (the
            first moments of a slow motion, handed back on release).
        potted_at: Frame at which the ball was found potted (-1: never).
        seen_at: Frame at which the ball was last seen (-1: never).
        still_at: Frame at which the ball at rest was last seen at its place
            (within ``hold_mm`` of its anchor; -1: never).
        rest_since: Frame at which the ball last came to rest (-1: it has not
            moved since its track began).
        nudged: ``(frame, (2,) mm)`` the last sightings of a ball at rest a
            little off its anchor (beyond ``hold_mm``, within ``release_mm``):
            a steady run of them moves the anchor (a ball nudged by another).
        rolling: ``(frame, (2,) mm)`` sure sightings of the white at rest, in
            successive frames, more than a ball's width from its anchor
            (``_rolled``); of a colour struck unseen, its unsure sightings
            running away from its place (``_reacquire_struck``).
        unsure_unpot: Frames in which a potted ball was seen again where it
            vanished, but unsure of its kind (``TrackerConfig.unpot_sightings``).
        touched_at: Last frame in which a moving ball was within touching
            distance of the ball at rest (``BallTracker._touched``; -1: never):
            a feathered ball may be creeping to a new place a few mm off.
        left: ``(frame, (2,) mm)``: when the ball last set off, and the place
            it left (None: it has not moved since its track began).
        in_jaws: Lost slowly going into a pocket's jaws, and held there a
            while before it is potted (``TrackerConfig.jaws_wait_frames``): it
            can only come back out of them.
        stopped_unseen: Lost in a pocket's jaws too slowly to drop, and held
            at rest there, hidden (``BallTracker._stopped_in_jaws``), until a
            ball comes to touch it, or where it can be shows bare.
        reach_mm: How far on one ``stopped_unseen`` can have rolled unseen
            (its run at the speed it was lost at).
        reads: (9,) float32 class probabilities (``KINDS`` then "none") of
            the last few detections at the anchor, matched or not (at most
            ``TrackerConfig.trade_reads``; cleared when the anchor moves).
        bare_frames: Frames in a row, of those its place was looked at, that
            showed the place of a ball held hidden in a pocket's jaws bare
            (``BallTracker.hidden_in_jaws``).
        bare_since: The first of those frames.
        covered_at: The last frame that showed its place covered (looked at
            as for ``bare_frames``: ``Detections.covered_mm``).
        jaws_run: ``(frame, (2,) mm)``: the unsure sightings in a pocket's
            jaws nearest a ball lost moving there, in the last frames in a row
            (``BallTracker._moving_on_in_jaws``).
        ran_into_jaws: Seen running on into a pocket's jaws (``jaws_run``)
            since it last moved: its unsure sightings there are it until it
            comes to rest or drops.
    """

    track_id: int
    kind: BallKind
    state: np.ndarray
    cov: np.ndarray
    status: TrackStatus = TrackStatus.SEEN
    xy_px: np.ndarray = field(default_factory=lambda: np.zeros(2))
    radius_px: float = 10.0
    confidence: float = 0.0
    missed: int = 0
    meas_mm: np.ndarray | None = None
    anchor: np.ndarray | None = None
    pending: list[tuple[int, np.ndarray]] = field(default_factory=list)
    recent: deque[np.ndarray] = field(default_factory=lambda: deque(maxlen=8))
    near_pocket: float = INF
    near: deque[tuple[int, np.ndarray]] = field(
        default_factory=lambda: deque(maxlen=CREEP_FIT_SIGHTINGS))
    potted_at: int = -1
    seen_at: int = -1
    still_at: int = -1
    rest_since: int = -1
    nudged: deque[tuple[int, np.ndarray]] = field(default_factory=deque)
    rolling: list[tuple[int, np.ndarray]] = field(default_factory=list)
    unsure_unpot: list[int] = field(default_factory=list)
    touched_at: int = -1
    left: tuple[int, np.ndarray] | None = None
    in_jaws: bool = False
    stopped_unseen: bool = False
    reach_mm: float = 0.0
    reads: deque[np.ndarray] = field(default_factory=deque)
    bare_frames: int = 0
    bare_since: int = -1
    covered_at: int = -1
    jaws_run: list[tuple[int, np.ndarray]] = field(default_factory=list)
    ran_into_jaws: bool = False

    @property
    def reported_mm(self) -> np.ndarray:
        """(2,) position to report, table mm: the anchor of a ball at rest, else
        the last measurement when the ball was seen this frame, else the filter's
        state."""
        if self.anchor is not None:
            return self.anchor
        if self.meas_mm is not None and (self.status == TrackStatus.SEEN
                                         or self.speed > 0.0):
            return self.meas_mm  # seen, or coasting unseen: where last seen
        return self.state[:2]

    @property
    def xy_mm(self) -> np.ndarray:
        """(2,) position, table mm."""
        return self.anchor if self.anchor is not None else self.state[:2]

    @property
    def last_seen_mm(self) -> np.ndarray:
        """(2,) table mm: the last measurement, else ``xy_mm``."""
        return self.meas_mm if self.meas_mm is not None else self.xy_mm

    @property
    def speed(self) -> float:
        """Speed, mm per frame."""
        return float(np.hypot(self.state[2], self.state[3]))


@dataclass(frozen=True)
class Release:
    """A ball at rest found to be moving: where it was in the frames that showed it.

    Attributes:
        track_id: The track.
        points: ``(frame, (2,) mm)`` measured positions, oldest first.
    """

    track_id: int
    points: tuple[tuple[int, np.ndarray], ...]


@dataclass(frozen=True)
class TrackerConfig:
    """Tuning of the tracker.

    Attributes:
        meas_sigma_mm: Detection position noise, mm.
        accel_sigma_mm: Process noise (acceleration per frame), mm.
        gate: Mahalanobis gate (sigmas).
        gate_min_mm: Matches within this distance are always allowed.
        bounce_share: For a ball seen moving, that distance grows by this share
            of its speed (mm a frame): a bounce turns it off its predicted way.
        lost_gate_mm: Gate of a ball lost while moving: this plus
            ``lost_gate_step_mm`` per frame missed, at most ``max_step_mm``.
        lost_gate_step_mm: See ``lost_gate_mm``.
        max_step_mm: Farthest a detection may be from a track to be matched.
        colour_weight: Weight of -log P(kind) in the cost.
        pocket_mm: A ball lost within this distance of a pocket is potted.
        min_ball_prob: Detections less likely to be balls start no track.
        birth_prob: Least probability of its kind for a detection to start (or
            take over) a track.
        spot_birth_prob: The same for a colour standing on its own spot, and
            the cue ball in the D, where they are expected (far balls of
            broadcast views are read less surely).
        spot_mm: How near its spot a colour counts as standing on it.
        birth_frames: Detection frames a new ball must be seen in (in one
            place, or along a steady line) before it gets a track (except on
            the first frame).
        candidate_mm: A sighting within this (plus half its speed, mm a frame)
            of where a candidate (not yet a track) is expected is the same ball.
        candidate_step_mm: Farthest a candidate seen once can have gone in a
            frame (its speed is not known yet).
        candidate_frames: A candidate is looked for where it is expected for
            this many frames after it was first seen, and forgotten when unseen
            for as many.
        takeover_frames: Frames a ball at rest must have been unseen before a
            new sighting of its kind elsewhere may take its track.
        clear_mm: A new track must be this far from every other ball.
        wedge_mm: A ball's track is not taken to a sighting this near two other
            balls at once (``_wedged``).
        hold_mm: Detections within this of a ball's anchor leave it at rest.
        release_mm: Distance from the anchor beyond which steady motion away
            releases a ball (beyond what an occluder can shift a centre).
        settle_mm: A moving ball whose last ``settle_frames`` measurements are
            within this of their mean comes to rest there.
        settle_frames: See ``settle_mm``.
        settle_speed_mm: A moving ball comes to rest (``settle_mm``) only when a
            line fitted to its last measurements moves slower than this, mm a
            frame (a ball creeping to a stop, measured with a little noise, is
            not yet at rest).
        settle_line_mm: Nor until those measurements all lie within this of
            that line: a ball that turned among them (back off a cushion) is
            fitted slow by a line through the turn while it still rolls (seed
            3477's white came back off the top cushion at 1.2 mm a frame and
            was taken to rest 9 frames, 5 mm, short of where it stopped).
        release_prob: Least probability of the ball's kind for a detection to
            count as evidence that a ball at rest moved.
        blur_prob: Detections between this and ``release_prob`` (a ball
            blurred by a fast start, the break's cue ball) count as evidence
            only as part of a steady run away from the anchor (``_released``).
        blur_step_mm: Of a ball that nothing seen can have struck, such a run
            counts only in steps at least this long (mm a frame): a ball read
            unsure of its kind as it leaves is blurred, struck fast; a slow
            run of unsure sightings is a hand or the cue over it. A colour
            lost rolling at least this fast may be taken back unsurely
            (``_ahead``).
        coast_frames: Frames a ball lost while moving is looked for ahead on its
            motion before it is potted (near a pocket) or held.
        reacquire_prob: Least probability of its kind for a detection left
            unmatched to re-acquire a lost ball of that kind (``_reacquire``;
            a colour lost moving and seen on ahead along its line needs only
            ``ahead_prob``: ``_ahead``).
        ahead_prob: See ``reacquire_prob``.
        reacquire_step_mm: Farthest a lost moving ball can have gone per frame
            since it was last seen (the break's cue ball: about 210 mm).
        reacquire_speed_share: A lost moving ball whose speed was seen (between
            its last two sightings) can have gone no farther per frame than
            this many times that speed, plus ``reacquire_slack_mm``.
        reacquire_slack_mm: See ``reacquire_speed_share``.
        long_lost_frames: A ball lost moving for more than this many frames is
            taken back only by a sure sighting with one of its kind within
            ``long_lost_step_mm`` of it the frame before (two in a row).
        long_lost_step_mm: See ``long_lost_frames``.
        unpot_frames: A ball seen again within this many frames of being found
            potted, where it was last seen, was not potted (it stopped in the
            jaws, hidden): it gets its track back.
        unpot_mm: See ``unpot_frames``.
        unpot_sightings: Sightings there, in as many frames, that give the
            track back when each reads its kind at ``min_ball_prob`` but not at
            ``reacquire_prob`` (one sure one does): a ball come to rest against
            the near cushion after rattling in the jaws shows only part of
            itself (seed 484's red, 65% seen, read 0.71 red).
        reacquire_hidden: Frames the white at rest must be unseen before a
            detection far away may take it (``reacquire_far_mm``), and
            before unsure sightings set it off only as blurred ones do
            (``_long_hidden_white``).
        reacquire_far_mm: See ``_reacquire``: farther than the cue's tip
            can be from the ball.
        reacquire_far_prob: Least probability of white for that (and for
            a sighting to show the cue ball put down by hand: ``_put_down``).
        blur_ball_prob: A detection this likely to be a ball, and surely of
            the white's kind if a ball (``blur_share``), is a blurred sighting
            of the white: two in successive frames, a rolling ball's step
            apart, re-acquire the white lost at rest (the break's cue ball,
            smeared into the cloth, reads as only half a ball).
        blur_share: See ``blur_ball_prob``.
        clutter_frames: Unmatched detections are remembered (as clutter: the
            cue's tip, a hand) this many frames: a ball at rest is not set
            moving by a detection near them.
        vacated_frames: A ball at rest missed where it stood for at most this
            many frames (or seen away from it in the last two) is matched
            against detections anywhere searched (it may have been struck), not
            only when its place is searched.
        nudge_frames: Sightings of a ball at rest, steadily a little off its
            anchor (or of the cue ball put down elsewhere in the D:
            ``_put_down``), that move the anchor there (``_nudged``).
        fast_step_mm: A ball at rest seen to leap farther than this in a frame
            is released only when a third sighting shows it still going, or
            two leap evenly (``even_leap_share``).
        drop_speed_mm: A ball lost near a pocket (not in its mouth) is potted
            only if it was heading into it faster than this, mm a frame.
        jaws_speed_mm: A ball lost slower than this (mm a frame) going into
            a pocket may stop in, or rattle out of, its jaws: it is held hidden
            where last seen for ``jaws_wait_frames`` before it is potted (a
            hold no longer than a stroke's rest window delays nothing).
        jaws_wait_frames: See ``jaws_speed_mm``. One lost in a corner's
            mouth too slowly to roll on into its fall (``roll_decel_mm``) is
            not potted: it stopped in the jaws (``_stopped_in_jaws``).
        roll_decel_mm: Deceleration of a ball rolling on the cloth, mm a frame
            a frame (``SegmenterConfig.roll_decel_mm_s2`` at 30 frames a
            second).
        moving_candidate_mm: A track placed at a candidate that moved faster
            than this since first seen (mm a frame, on average) starts moving.
        touch_mm: A moving ball this near touching one at rest (beyond two
            radii between centres, mm) may have struck it (``_touched``: the
            chord between sightings of a ball deflected by the contact passes
            wide of it).
        jaws_birth_frames: Sightings a candidate in a pocket's jaws (its centre
            more than ``jaws_beyond_mm`` beyond where a ball on the bed can be)
            needs to start a track.
        jaws_beyond_mm: See ``jaws_birth_frames``.
        rolling_step_mm: The white's sure sightings away from its anchor show
            it rolling when they step at least this far a frame (``_rolled``).
        dead_stop_frames: The white first seen this soon after it was last
            seen at its place, far from it, stepping no more than
            ``dead_stop_step_mm`` a frame since, ...
        dead_stop_step_mm: See ``dead_stop_frames``.
        dead_stop_gap_mm: ... and within this of touching a ball at rest
            there, was struck and stopped dead there (``_stopped_dead``).
        stopped_speed_mm: A ball lost moving faster than this (mm a frame)
            and found again where it was lost is moving (back off a cushion
            along its way), not at rest there.
        even_leap_share: Two sightings leaping off a ball's anchor in steps
            that differ by at most this share of the longer, on one line,
            release it (``_even_leaps``); other leaps need a third sighting.
        feather_mm: A moving ball whose way passes this near touching a ball
            at rest (beyond two radii, mm) may have feathered it: the ball is
            marked touched (``Track.touched_at``) and watched while it may
            creep (seed 524's white passed 55 mm from the red's centre, its
            measured way 2.7 mm wide of touching).
        lately_frames: A ball lost moving this many frames ago or fewer may
            still be moving (``_cue_ball_alone``).
        creep_step_mm: A ball at rest touched at most ``creep_touch_frames``
            ago whose sightings near its place go steadily farther from it by
            this much a frame or more is creeping off it (``_creeping``).
        creep_touch_frames: See ``creep_step_mm``.
        trade_reads: Detections at each of two balls at rest that must read it
            as the other's kind (``trade_sure`` or more of it, under
            ``trade_doubt`` of its own) before they trade tracks
            (``BallTracker._trade_misread``), once every ball seen has been
            at rest ``trade_still_frames`` or more (the stroke before is
            closed by then: a jump within it would be taken for motion).
        trade_sure: See ``trade_reads``.
        trade_doubt: See ``trade_reads``.
        trade_still_frames: See ``trade_reads``.
        balance_frames: A ball at rest in a pocket's jaws that goes from sight
            dropped only if it came to rest (or was touched) at most this many
            frames before: it balanced a moment on the edge (and only if its
            creep reaches the pocket's fall: ``_short_of_fall``).
        bare_frames: A ball seen at rest in a pocket's jaws, then held there
            hidden, dropped once this many frames in a row show its place
            bare (``BallTracker.hidden_in_jaws``).
    """

    meas_sigma_mm: float = 4.0
    accel_sigma_mm: float = 8.0
    gate: float = 6.0
    gate_min_mm: float = 30.0
    bounce_share: float = 1.5
    lost_gate_mm: float = 80.0
    lost_gate_step_mm: float = 40.0
    max_step_mm: float = 450.0
    colour_weight: float = 2.0
    pocket_mm: float = 110.0
    min_ball_prob: float = 0.6
    birth_prob: float = 0.9
    spot_birth_prob: float = 0.6
    spot_mm: float = 20.0
    birth_frames: int = 3
    candidate_mm: float = 15.0
    candidate_step_mm: float = 150.0
    candidate_frames: int = 30
    takeover_frames: int = 10
    clear_mm: float = 42.0
    wedge_mm: float = 48.5
    hold_mm: float = 12.0
    release_mm: float = 30.0
    settle_mm: float = 1.5
    settle_frames: int = 4
    settle_speed_mm: float = 0.3
    settle_line_mm: float = 2.0
    coast_frames: int = 4
    release_prob: float = 0.8
    blur_prob: float = 0.4
    blur_step_mm: float = 15.0
    reacquire_prob: float = 0.8
    ahead_prob: float = 0.5
    reacquire_step_mm: float = 300.0
    reacquire_speed_share: float = 2.0
    reacquire_slack_mm: float = 80.0
    long_lost_frames: int = 60
    long_lost_step_mm: float = 60.0
    unpot_frames: int = 90
    unpot_mm: float = 60.0
    unpot_sightings: int = 3
    reacquire_hidden: int = 3
    reacquire_far_mm: float = 800.0
    reacquire_far_prob: float = 0.9
    blur_ball_prob: float = 0.5
    blur_share: float = 0.9
    clutter_frames: int = 5
    vacated_frames: int = 10
    nudge_frames: int = 6
    fast_step_mm: float = 60.0
    drop_speed_mm: float = 2.5
    jaws_speed_mm: float = 15.0
    roll_decel_mm: float = SegmenterConfig().roll_decel_mm_s2 / 30.0**2
    jaws_wait_frames: int = 12
    moving_candidate_mm: float = 2.0
    touch_mm: float = 30.0
    rolling_step_mm: float = 2.0
    dead_stop_frames: int = 3
    dead_stop_step_mm: float = 5.0
    dead_stop_gap_mm: float = 15.0
    jaws_birth_frames: int = 10
    jaws_beyond_mm: float = 3.0
    stopped_speed_mm: float = 3.0
    even_leap_share: float = 0.2
    feather_mm: float = 10.0
    balance_frames: int = 60
    lately_frames: int = 30
    creep_step_mm: float = 0.7
    creep_touch_frames: int = 30
    trade_reads: int = 8
    trade_sure: float = 0.6
    trade_doubt: float = 0.25
    trade_still_frames: int = 30
    bare_frames: int = 5


@dataclass
class _Candidate:
    """An unmatched detection seen over several frames (not yet a track).

    Attributes:
        kind: Its kind.
        xy: (2,) last place, table mm.
        count: Frames it was seen in.
        frame: Frame it was last seen in.
        first: Frame it was first seen in.
        origin: (2,) place it was first seen at, table mm.
        least_prob: Least probability of its kind in its sightings, as the
            classifier read it (not among the kinds it can be).
    """

    kind: BallKind
    xy: np.ndarray
    count: int
    frame: int
    first: int
    origin: np.ndarray
    least_prob: float

    def velocity(self) -> np.ndarray:
        """(2,) mean motion since first seen, mm a frame."""
        return (self.xy - self.origin) / max(self.frame - self.first, 1)

    def speed(self) -> float:
        """Mean speed since first seen, mm a frame."""
        return float(np.linalg.norm(self.velocity()))


class BallTracker:
    """Tracks every ball of one clip.

    Args:
        spec: Table geometry (pockets, spots).
        config: Tuning.

    Attributes:
        max_reds: Most red tracks at once: 15, or the reds known to be left
            on the table (set by its user: those racked less those potted;
            seed 622's player's arm, read red, became an eleventh red of 10 and
            kept the break's stroke open).
        in_hand: The cue ball is in hand (set by its user: the last stroke
            potted it or sent it off the table, seed Part 2 rule 9): seen at
            rest, it is back only in the D (``_placeable``).
    """

    def __init__(self, spec: TableSpec, config: TrackerConfig | None = None) -> None:
        self.spec = spec
        self.config = config or TrackerConfig()
        self.tracks: list[Track] = []
        self.releases: list[Release] = []
        self.dropped: list[tuple[int, int]] = []
        self._next_id = 1
        self.max_reds = MAX_COUNT[BallKind.RED]
        self.in_hand = False
        self._frame = -1
        self._updates = 0
        self._stirred_at = 0  # last frame a ball seen moved (``_trade_misread``)
        self._cands: list[_Candidate] = []
        self._clutter_hist: deque[np.ndarray] = deque(
            maxlen=self.config.clutter_frames)
        self._clutter = np.zeros((0, 2))
        self._blurred_white: tuple[int, np.ndarray] = (-9, np.zeros((0, 2)))
        self._sure_before: tuple[int, list[tuple[BallKind, np.ndarray]]] = (-9, [])
        # (each track seen in the frame before, where: ``_seen_there``)
        self._seen_last: list[tuple[Track, np.ndarray]] = []
        c = self.config
        self._f = np.eye(4)
        self._f[0, 2] = self._f[1, 3] = 1.0
        q = c.accel_sigma_mm**2
        self._q = np.diag([q / 4, q / 4, q, q])
        self._h = np.eye(2, 4)
        self._r = np.eye(2) * c.meas_sigma_mm**2
        self._pockets = np.array(list(spec.pockets.values()))

    @property
    def frame(self) -> int:
        """Index of the last frame given (``update`` or ``idle``); -1 before."""
        return self._frame

    def active(self) -> list[Track]:
        """Tracks of balls on the table (seen or hidden)."""
        return [t for t in self.tracks if t.status != TrackStatus.POTTED]

    def _unpottable(self, t: Track) -> bool:
        """Was ``t`` found potted lately, so that it may yet be seen where it
        vanished (stopped in the jaws, see ``TrackerConfig.unpot_frames``)?"""
        return (t.status == TrackStatus.POTTED and t.meas_mm is not None
                and 0 <= self._frame - t.potted_at <= self.config.unpot_frames)

    def may_be_in_jaws(self) -> bool:
        """Was a ball found potted lately (``_unpottable``)?"""
        return any(self._unpottable(t) for t in self.tracks)

    def hidden_in_jaws(self) -> list[Track]:
        """Balls held hidden a while (``coast_frames`` searches or more) in or
        by a pocket's jaws (``held_by_jaws``): seen at rest there, or stopped
        there unseen (``Track.stopped_unseen``)
        (gone from sight where detection looked: the player in front, say).
        Were one knocked in out of sight, nothing would be seen to touch it:
        where it can be (``jaws_places``), seen bare (``Detections.bare_mm``),
        says it dropped
        (seed 1246's red, at rest in the top-right jaws, was knocked in by the
        white while both were hidden by the player; its track stayed there,
        hidden, to the end of the clip, though the jaws were in plain view and
        empty a second later, and the stroke was called a miss; seed 1462's
        red, lost at 2.3 mm a frame 18 mm from the top-right pocket's point,
        taken to have stopped short of the fall, had dropped: its place and
        all round it read bare from the next frame on)."""
        return [t for t in self.held_by_jaws()
                if t.missed >= self.config.coast_frames]

    def held_by_jaws(self) -> list[Track]:
        """Balls held hidden at rest in or by a pocket's jaws (within
        ``pocket_mm`` of the pocket), however lately lost."""
        return [t for t in self.tracks
                if t.status == TrackStatus.HIDDEN and t.anchor is not None
                and self._pocket_gap(t.anchor) < self.config.pocket_mm]

    def jaws_places(self, t: Track) -> np.ndarray:
        """(K, 2) mm: where ``t``, one of ``hidden_in_jaws``, can be: its
        place (first), and for one that stopped unseen the places within its
        reach (``Track.reach_mm``; eight ways, half and all of it) where a
        ball can stop: on the bed, or in a pocket's mouth. Its place alone
        reads bare while it lies unseen a few mm on (seed 1058's red, lost
        at 2.4 mm a frame into the jaws of a far corner, stopped behind the
        jaw)."""
        assert t.anchor is not None
        if not t.stopped_unseen or t.reach_mm <= 0.0:
            return t.anchor[None].copy()
        spec = self.spec
        turn = np.arange(8) * (np.pi / 4)
        ways = np.stack([np.cos(turn), np.sin(turn)], axis=1)
        ring = t.anchor + np.concatenate([0.5 * t.reach_mm * ways,
                                          t.reach_mm * ways])
        on_bed = np.all(np.abs(ring) <= spec.touch_limits, axis=1)
        mouth = np.array([min(float(np.linalg.norm(p - q)) - 0.5 * spec.pocket_mouth(k)
                              for k, q in spec.pockets.items()) for p in ring])
        return np.concatenate([t.anchor[None], ring[on_bed | (mouth <= 0.0)]])

    def _drop_bare(self, bare_mm: np.ndarray, covered_mm: np.ndarray | None
                   ) -> None:
        """Count, for each ball ``hidden_in_jaws``, whether this frame showed
        its place bare (``bare_mm``: (M, 2) mm, those of the places that it
        did; ``covered_mm``: those it showed covered); one seen bare
        ``bare_frames`` frames in a row dropped, by the first of them
        (``dropped``: ``(track id, frame)``, for the rows already given to be
        taken back)."""
        def shown(places: np.ndarray | None, p: np.ndarray) -> bool:
            return places is not None and len(places) > 0 and float(
                np.min(np.linalg.norm(places - p, axis=1))) < 1.0

        for t in self.hidden_in_jaws():
            assert t.anchor is not None
            bare = shown(bare_mm, t.anchor)
            if bare and not t.bare_frames:
                t.bare_since = self._frame
            t.bare_frames = t.bare_frames + 1 if bare else 0
            if shown(covered_mm, t.anchor):
                t.covered_at = self._frame
            if t.bare_frames >= self.config.bare_frames:
                self._pot(t)
                t.potted_at = t.bare_since
                self.dropped.append((t.track_id, t.bare_since))

    def idle(self) -> None:
        """A frame in which nothing changed: every ball keeps its state."""
        self._frame += 1

    def _predict(self, t: Track) -> None:
        t.state = self._f @ t.state
        t.cov = self._f @ t.cov @ self._f.T + self._q

    def _correct(self, t: Track, z: np.ndarray) -> None:
        s = self._h @ t.cov @ self._h.T + self._r
        k = t.cov @ self._h.T @ np.linalg.inv(s)
        t.state = t.state + k @ (z - self._h @ t.state)
        t.cov = (np.eye(4) - k @ self._h) @ t.cov

    def _new_track(self, kind: BallKind, z: np.ndarray) -> Track:
        t = Track(self._next_id, kind, np.zeros(4), np.eye(4))
        self._rest_at(t, z)
        t.rest_since = -1
        self._next_id += 1
        self.tracks.append(t)
        return t

    def _rest_at(self, t: Track, z: np.ndarray) -> None:
        """Anchor ``t`` at rest at ``z``."""
        t.anchor = np.asarray(z, np.float64).copy()
        t.rest_since = self._frame
        t.still_at = self._frame
        t.ran_into_jaws = False
        t.state = np.array([z[0], z[1], 0.0, 0.0])
        t.cov = np.diag([self.config.meas_sigma_mm**2] * 2 + [1.0] * 2)
        t.pending = []
        t.rolling = []
        t.recent.clear()
        t.near.clear()
        t.nudged.clear()
        t.reads.clear()

    def _cluttered(self, z: np.ndarray) -> np.ndarray:
        """(M,) bool: near an unmatched detection of the last few frames."""
        if not len(self._clutter) or not len(z):
            return np.zeros(len(z), bool)
        d = np.linalg.norm(z[:, None] - self._clutter[None], axis=2)
        return d.min(axis=1) < 40.0

    def _cue_ball_alone(self) -> np.ndarray | None:
        """(2,) mm: the cue ball's place when it is at rest and no other ball
        was lately seen moving (only the cue can set a ball off now); else None."""
        c = self.config
        cue = None
        for t in self.active():
            if t.anchor is None and t.seen_at >= self._frame - c.lately_frames:
                return None
            if t.kind == BallKind.WHITE:
                cue = t.anchor
        return cue

    def _cost_row(self, t: Track, z: np.ndarray, probs: np.ndarray,
                  cue: np.ndarray | None = None) -> np.ndarray:
        """(M,) assignment cost of ``t`` against detections (INF: not allowed);
        ``cue``: see ``_cue_ball_alone``."""
        c = self.config
        d = z - t.xy_mm
        dist = np.linalg.norm(d, axis=1)
        kp = probs[:, KINDS.index(t.kind)]
        if t.status == TrackStatus.POTTED:
            # found potted a moment ago: seen again where it vanished, or in
            # the mouth of the pocket it went for? (one that rattled in the
            # jaws comes back out of them: seed 844's red, lost 220 mm short
            # of a far corner at 35 mm a frame, hit both jaws and came out
            # 170 mm from where it was last seen; a new track took it, and it
            # was called potted)
            assert t.meas_mm is not None
            dist = np.linalg.norm(z - t.meas_mm, axis=1)
            pocket = self._pockets[np.argmin(np.linalg.norm(
                self._pockets - t.meas_mm, axis=1))]
            mouth = np.linalg.norm(z - pocket, axis=1)
            # (as near it as one lost is potted)
            dist = np.where(mouth <= c.pocket_mm, np.minimum(dist, mouth), dist)
            m = dist / (2 * c.meas_sigma_mm)
            allowed = (dist < c.unpot_mm) & (kp >= c.min_ball_prob)
        elif t.anchor is not None:
            # at rest: near detections are cheap; far ones may start a motion
            # (beyond the hold distance every place is as good a start as any,
            # except where unmatched detections already were: clutter such as
            # the cue's tip, not a ball setting off)
            # (as dear as a moving ball's match at its gate: a ball at rest
            # takes a far detection from a moving ball only on colour)
            # (less dear the nearer: of two balls at rest side by side, each
            # takes the sighting nearer it)
            m = np.where(dist <= c.hold_mm, dist / (2 * c.meas_sigma_mm),
                         c.gate + dist / c.max_step_mm)
            # (the clutter of the cue's tip is about the cue ball; an object
            # ball's own unmatched sightings, once it is rolling away, are not;
            # nor, within ``release_mm``, those of one setting off slowly:
            # seed 443's red, cut thinly, rolled off at 3 mm a frame; each
            # sighting left unmatched became clutter that barred the next,
            # and it was held at its old place for the rest of the clip)
            cluttered = self._cluttered(z)
            if t.kind != BallKind.WHITE:
                cluttered &= (dist > c.release_mm) & (dist <= 2 * c.release_mm)
            allowed = (dist < c.max_step_mm) & ((dist <= c.hold_mm) | ~cluttered)
            if cue is not None and t.kind != BallKind.WHITE:
                # struck by the cue ball coming from its place, a ball sets off
                # away from that place: a sighting on the near side of it is the
                # player's hand or cue (seed 584: the bridge hand, read 0.98
                # red, set off a red hidden behind the player 300 mm away,
                # which was then named the first contact)
                away = (z - t.anchor) @ (t.anchor - cue)
                allowed &= (dist <= c.hold_mm) | (away > 0)
            if t.pending and t.pending[-1][0] >= self._frame - 2:
                # a motion may have begun: follow it from its last sighting
                f1, p1 = t.pending[-1]
                if len(t.pending) > 1:
                    f0, p0 = t.pending[-2]
                    v = (p1 - p0) / max(f1 - f0, 1)
                else:
                    # (from where it was last seen at rest: a struck ball
                    # blurred out of sight sets off unseen)
                    v = (p1 - t.anchor) / max(f1 - t.seen_at, 1)
                dp = np.linalg.norm(z - (p1 + v * (self._frame - f1)), axis=1)
                far = dist > c.hold_mm
                m = np.where(far, dp / (4 * c.meas_sigma_mm), m)
                allowed = np.where(far, dp < c.max_step_mm, allowed)
        else:
            s = self._h @ t.cov @ self._h.T + self._r
            m2 = np.einsum("ni,ij,nj->n", d, np.linalg.inv(s), d)
            m = np.sqrt(np.maximum(m2, 0.0))
            reach = c.max_step_mm
            # a bounce off a cushion or the jaws turns a ball by up to twice
            # its speed away from where its motion led
            bounce = c.bounce_share * t.speed if t.status == TrackStatus.SEEN else 0.0
            within = dist < c.gate_min_mm + bounce
            near = (m < c.gate) | within
            m = np.where(within, np.minimum(m, c.gate), m)
            if t.status == TrackStatus.HIDDEN:
                # lost while moving: the motion model is no longer to be
                # trusted (it may have struck a ball), only the reach
                reach = min(reach, c.lost_gate_mm + c.lost_gate_step_mm * t.missed)
                if t.in_jaws:  # (it can only come back out: ``_reacquire``)
                    reach = min(reach, self._jaws_reach(t))
                near = near | (kp >= c.reacquire_prob)
                if t.meas_mm is not None:
                    # nor its way: it may have come back off the jaws or a
                    # cushion, towards where it was last seen (seed 492's
                    # red, back out of a corner's jaws at 15 mm a frame, read
                    # 0.74 red as it came; lost, it was taken for potted)
                    back = np.linalg.norm(z - t.meas_mm, axis=1)
                    came_back = (back < dist) & (kp >= c.min_ball_prob)
                    near = near | came_back
                    dist = np.where(came_back, back, dist)
                # its spread has grown while unseen: a ball seen a moment ago
                # comes first for a detection near it
                m = np.maximum(m, dist / (4 * c.meas_sigma_mm))
            allowed = near & (dist < reach)
        cc = m - c.colour_weight * np.log(kp + 1e-3)
        # never swap colours: a detection sure to be a ball, and sure that it
        # is not of this kind, is refused; at a ball's place at rest (seen
        # sharp), so is one sure of another kind and all but sure that it is
        # not of this one (seed 786: the black, knocked to where a red had
        # stood, read 0.94 black and 0.033 red, and that red's track took it
        # for 400 frames; a red blurred at 4 m/s reads 0.93 brown, 0.04 red)
        sure_other = (probs.sum(1) > 0.9) & (kp < 0.02)
        if t.anchor is not None and t.status != TrackStatus.POTTED:
            sure_other |= ((np.linalg.norm(z - t.anchor, axis=1) <= c.hold_mm)
                           & (probs.max(1) >= 0.9) & (kp < 0.05))
        return np.where(allowed & ~sure_other, cc, INF)

    def update(
        self,
        dets: Detections,
        regions_px: Sequence[tuple[int, int, int, int]] | None = None,
    ) -> list[Track]:
        """Advance one frame with its detections.

        Args:
            dets: This frame's detections.
            regions_px: When detection only looked at some pixel boxes, those boxes:
                tracks outside them are left as they were.

        Returns:
            The active tracks after the update.
        """
        self._frame += 1
        self._updates += 1
        self.releases = []
        self.dropped = []
        self._seen_last = [(t, t.meas_mm.copy()) for t in self.active()
                           if t.seen_at == self._frame - 1 and t.meas_mm is not None]
        if dets.bare_mm is not None:
            self._drop_bare(dets.bare_mm, dets.covered_mm)
        assert dets.held_only is not None
        held = dets.subset(dets.held_only)
        dets = dets.sure().behind_unread()
        pool = []
        for t in self.active():
            # a moving (or lost moving) ball is looked for wherever detection
            # looked: its last image position says nothing of where it is now
            # so is a ball at rest lately missed where it stood, or seen
            # leaving it: it may have been struck away, and be blurred past
            # telling its colour
            # (and so is one whose place lay too near a searched box's edge
            # to count as searched, yet was seen there: else its sighting is
            # free for another ball; seed 573's red, about to be struck, was
            # taken by a red lost 350 mm away, which then followed it off)
            if (regions_px is not None and t.anchor is not None
                    and not _inside(t.xy_px, regions_px, CUT_MARGIN * t.radius_px)
                    and not self._may_be_leaving(t)
                    and not self._seen_at_place(t, dets)):
                continue
            if t.anchor is None:
                self._predict(t)
            pool.append(t)
        pool += [t for t in self.tracks if self._unpottable(t)]
        ok = np.isfinite(dets.xy_mm).all(axis=1) & (dets.ball_prob >= 0.3)
        idx = np.flatnonzero(ok)
        z = dets.xy_mm[idx]
        probs = dets.probs[idx, : len(KINDS)]
        matched_t: set[int] = set()
        matched_d: set[int] = set()
        if pool and len(idx):
            cue = self._cue_ball_alone()
            cost = np.array([self._cost_row(t, z, probs, cue) for t in pool])
            cost = np.nan_to_num(cost, nan=INF, posinf=INF)
            # first each ball and the sighting where it is (the assignment
            # would otherwise hand a ball's own sighting to another, so that
            # some far sighting, that only the first could take, is taken)
            here = np.array([np.linalg.norm(z - t.xy_mm, axis=1) for t in pool])
            stages = (np.where(here <= self.config.hold_mm, cost, INF), cost)
            for stage in stages:
                free_t = [i for i in range(len(pool)) if i not in matched_t]
                free_d = [k for k in range(len(idx)) if k not in matched_d]
                if not free_t or not free_d:
                    break
                sub = stage[np.ix_(free_t, free_d)]
                for r_, c_ in zip(*linear_sum_assignment(sub), strict=True):
                    if sub[r_, c_] >= INF:
                        continue
                    i, k = free_t[r_], free_d[c_]
                    if self._match(pool[i], dets, int(idx[k])):
                        matched_t.add(i)
                        matched_d.add(k)
        for i, t in enumerate(pool):
            if i not in matched_t and t.status != TrackStatus.POTTED and not (
                    self._held_there(t, held)):
                self._unmatched(t)
        for k in self._reacquire(dets, idx, matched_d):
            matched_d.add(k)
        free = [k for k in range(len(idx)) if k not in matched_d]
        # (a sighting at an object ball's own place, left unmatched because
        # the place lay too near the searched box's edge to be looked for, is
        # that ball, not clutter: seed 482's red, its own sightings in the box
        # of the white coming at it, was barred from setting off when struck;
        # at the cue ball's place, the cue's tip is clutter)
        anchors = np.array([t.anchor for t in self.active()
                            if t.anchor is not None and t.kind != BallKind.WHITE])
        clutter = z[free] if free else np.zeros((0, 2))
        if len(anchors) and len(clutter):
            own = np.linalg.norm(clutter[:, None] - anchors[None], axis=2).min(
                axis=1) <= self.config.hold_mm
            clutter = clutter[~own]
        self._clutter_hist.append(clutter)
        self._clutter = np.concatenate(list(self._clutter_hist))
        self._start_tracks(dets, idx[free] if free else np.zeros(0, int),
                           regions_px)
        self._mark_touched()
        self._note_reads(dets, idx)
        self._trade_misread()
        return self.active()

    def _note_reads(self, dets: Detections, idx: np.ndarray) -> None:
        """Keep, for each ball at rest, this frame's detection at its anchor
        (``Track.reads``), whichever track took it."""
        c = self.config
        if not len(idx):
            return
        z = dets.xy_mm[idx]
        for t in self.active():
            if t.anchor is None:
                continue
            d = np.linalg.norm(z - t.anchor, axis=1)
            k = int(np.argmin(d))
            if d[k] <= c.hold_mm:
                t.reads.append(dets.probs[idx[k]].copy())
                if len(t.reads) > c.trade_reads:
                    t.reads.popleft()

    def _trade_misread(self) -> None:
        """Two balls at rest, each read as the other's kind by its last
        ``trade_reads`` detections, swapped tracks in a crowd: they trade them
        (all but id and kind), once every ball seen has been at rest
        ``trade_still_frames``. Seed 1186's break pushed the pink off its spot
        through the pack; a red's track followed it, the pink's stayed on a
        red, and the two read 0.87 pink and 0.92 red at rest for 800 frames,
        until the white struck that red and the pink was named as struck
        first. (Not the white: a hand or the cue's tip over it reads as it.)"""
        c = self.config
        active = self.active()
        if any(t.rest_since == self._frame if t.anchor is not None else (
                t.status == TrackStatus.SEEN and t.speed > c.stopped_speed_mm)
               for t in active):
            self._stirred_at = self._frame
        if self._frame - self._stirred_at < c.trade_still_frames:
            return
        doubted = [t for t in active if t.kind != BallKind.WHITE
                   and t.anchor is not None and len(t.reads) == c.trade_reads
                   and all(r[KINDS.index(t.kind)] < c.trade_doubt for r in t.reads)]
        for t, u in itertools.combinations(doubted, 2):
            if t.kind == u.kind:
                continue
            a, b = KINDS.index(t.kind), KINDS.index(u.kind)
            if all(r[b] >= c.trade_sure for r in t.reads) and all(
                    r[a] >= c.trade_sure for r in u.reads):
                for f in fields(Track):
                    if f.name not in ("track_id", "kind"):
                        va, vb = getattr(t, f.name), getattr(u, f.name)
                        setattr(t, f.name, vb)
                        setattr(u, f.name, va)
                return

    def _mark_touched(self) -> None:
        """Note the frame on the balls at rest that a moving ball has lately
        come within ``feather_mm`` of touching (``Track.touched_at``)."""
        moving = [u for u in self.active()
                  if u.anchor is None and u.seen_at >= self._frame - 3]
        if not moving:
            return
        pts = np.array([u.state[:2] for u in moving])
        # (``_touched`` follows a moving ball's last measurements: as far back
        # as they reach from where it is now)
        back = np.array([max((float(np.linalg.norm(p - u.state[:2]))
                              for p in u.recent), default=0.0) for u in moving])
        reach = 2 * self.spec.ball_radius + self.config.feather_mm + back
        for t in self.active():
            if t.anchor is None or not np.any(
                    np.linalg.norm(pts - t.anchor, axis=1) <= reach):
                continue
            if self._touched(t, self.config.feather_mm):
                t.touched_at = self._frame

    def _held_there(self, t: Track, held: Detections) -> bool:
        """Is ``t``, at rest, seen at its place among ``held`` (discs in a
        pocket's jaws not sure enough of their colour to stand alone: the ball
        stopped there; seed 452's red, deep in a far corner's jaws, read 0.94
        red, was dropped, and was taken for potted)? So is one moving slowly
        (under ``hold_mm`` a frame) seen where it was last seen (seed 586's red,
        given its track back in a far corner's jaws after it was taken for
        potted, read 0.8-0.9 red there, was taken for potted again). So is
        the cue ball lost moving in a pocket's mouth, seen within the way a
        ball in the jaws can have gone since (``jaws_speed_mm`` a frame): the
        dark opening makes discs that read as dark balls, never as the white
        (seed 2184's, rattled in a near corner's jaws at 13 mm a frame, read
        0.56-0.8 white there against the pocket's leather for a second, was
        taken for potted, a foul)."""
        c = self.config
        if not len(held):
            return False
        reach = c.hold_mm
        if t.anchor is not None:
            place = t.anchor
        elif (t.meas_mm is not None and t.kind == BallKind.WHITE
              and self._pocket_gap(t.meas_mm) < c.pocket_mm):
            # (however slowly it went in: seed 2594's, in at 10.5 mm a frame,
            # was read 0.65 white 15 mm on, beyond a slow ball's hold)
            place = t.meas_mm
            reach = self._jaws_reach(t)
        elif t.meas_mm is not None and self._lost_speed(t) <= c.hold_mm:
            place = t.meas_mm
        else:
            place = None
        if place is not None:
            j = self._held_sighting(t, held, place, reach)
            if j is not None:
                return self._match(t, held, j)
        if (t.anchor is None and t.kind != BallKind.WHITE and t.meas_mm is not None
                and self._pocket_gap(t.meas_mm) < c.pocket_mm):
            return self._moving_on_in_jaws(t, held)
        return False

    def _moving_on_in_jaws(self, t: Track, held: Detections) -> bool:
        """Is ``t``, a colour or a red lost moving in a pocket's mouth, seen
        running on into its jaws among ``held`` (discs there not sure enough
        of their colour to stand alone)? The dark opening makes discs that
        read as dark balls, even as red at 0.92-0.98 (seeds 411, 419), and a
        ball rattling there reads as unsurely (seed 2184's white), but neither
        runs on: the ball is there when the sightings nearest its way, within
        the way a ball in the jaws can have gone since it was lost
        (``jaws_speed_mm`` a frame) and read as its kind, lie ever farther
        from where it was lost, by ``JAWS_RUN_MM`` or more a frame, over
        ``JAWS_RUN_FRAMES`` frames in a row; and then, through its rattle
        there, until it comes to rest or drops (``Track.ran_into_jaws``), any
        such sighting within that way (seed 3001's red, in at 12 mm a frame,
        rattled in the top-right jaws and stopped 17 mm over the cushion line,
        read 0.99 red there: taken for potted, the score was wrong)."""
        assert t.meas_mm is not None
        j = self._held_sighting(t, held, t.meas_mm, self._jaws_reach(t))
        if j is None:
            t.jaws_run = []
            return False
        if t.ran_into_jaws:
            return self._match(t, held, j)
        if t.jaws_run and t.jaws_run[-1][0] != self._frame - 1:
            t.jaws_run = []
        t.jaws_run = [*t.jaws_run, (self._frame, held.xy_mm[j].astype(np.float64))]
        t.jaws_run = t.jaws_run[-JAWS_RUN_FRAMES:]
        if len(t.jaws_run) < JAWS_RUN_FRAMES:
            return False
        far = [float(np.linalg.norm(p - t.meas_mm)) for _, p in t.jaws_run]
        if float(np.diff(far).min()) < JAWS_RUN_MM:
            return False
        t.jaws_run = []
        t.ran_into_jaws = True
        return self._match(t, held, j)

    def _held_sighting(self, t: Track, held: Detections, place: np.ndarray,
                       reach: float) -> int | None:
        """Index in ``held`` of the sighting nearest ``place`` (mm), when it
        lies within ``reach`` mm and reads ``min_ball_prob`` or more as
        ``t``'s kind; else None."""
        if not len(held):
            return None
        d = np.nan_to_num(np.linalg.norm(held.xy_mm - place, axis=1), nan=INF)
        j = int(np.argmin(d))
        if d[j] > reach or held.probs[j, KINDS.index(t.kind)] < (
                self.config.min_ball_prob):
            return None
        return j

    def _jaws_reach(self, t: Track) -> float:
        """How far (mm) ``t``, lost moving in a pocket's jaws, can have gone
        since: ``jaws_speed_mm`` a frame, and its hold."""
        c = self.config
        return c.jaws_speed_mm * (t.missed + 1) + c.hold_mm

    def _seen_at_place(self, t: Track, dets: Detections) -> bool:
        """Is a detection within ``hold_mm`` of ``t``'s anchor?"""
        assert t.anchor is not None
        d = np.linalg.norm(dets.xy_mm - t.anchor, axis=1)
        return bool(np.any(d <= self.config.hold_mm))

    def _may_be_leaving(self, t: Track) -> bool:
        """Was ``t``, at rest, lately missed at its place or seen away from it
        (``vacated_frames``)?"""
        c = self.config
        return ((t.status == TrackStatus.HIDDEN and t.missed <= c.vacated_frames)
                or bool(t.pending and t.pending[-1][0] >= self._frame - 2))

    def _reacquire(self, dets: Detections, idx: np.ndarray, taken: set[int]
                   ) -> list[int]:
        """Lost balls found again: confident detections left unmatched.

        A ball lost while moving (blurred, deflected off the pack) is taken back
        by the next detection sure of its kind, away from every other ball,
        within the distance it can have rolled since it was last seen (for the
        white, of which there is one, that is anywhere plausible). The white
        hidden at rest for a few frames (struck, and blurred out of sight
        before it was seen to move) is taken back by a very sure detection far
        from its rest place: near it, the cue's tip and the player's hand look
        like the white (``_place`` takes a ball hidden at rest over after a
        while).

        Returns:
            Positions in ``idx`` of the detections used.
        """
        c = self.config
        used: list[int] = []
        blurred, before = self._blurred_whites(dets, idx, taken)
        for t in self.active():
            if t.status == TrackStatus.HIDDEN and t.anchor is not None and (
                    t.kind not in (BallKind.WHITE, BallKind.RED)
                    and t.touched_at >= t.seen_at):
                self._reacquire_struck(t, dets, idx, taken, used)
        lost = [t for t in self.active() if t.status == TrackStatus.HIDDEN
                and (t.anchor is None or (
                    t.kind == BallKind.WHITE and t.missed >= c.reacquire_hidden))]
        if not lost:
            return used
        # (kept only while a ball is lost: one lost long was lost the frame
        # before too)
        sure_before = self._sure_sightings(dets, idx)
        order = sorted((k for k in range(len(idx)) if k not in taken),
                       key=lambda k: -float(dets.confidence[idx[k]]))
        for k in order:
            j = int(idx[k])
            kind = KINDS[int(dets.kind[j])]
            kp = float(dets.probs[j, KINDS.index(kind)])
            sure = kp >= c.reacquire_prob
            if not sure and (kp < c.ahead_prob
                             or kind in (BallKind.RED, BallKind.WHITE)):
                continue
            z = dets.xy_mm[j].astype(np.float64)
            best, best_d = None, INF
            for t in lost:
                if t.kind != kind:
                    continue
                if not sure and (t.anchor is not None or not self._ahead(t, z)):
                    continue
                if t.anchor is not None:
                    # the white hidden at rest (left unseen in a blur):
                    # seen surely far beyond where the cue's tip can be, or
                    # rolling steadily away (``_rolled``: seed 525's, off at
                    # 13 mm a frame beside the red it potted; its sightings,
                    # left unmatched, had each barred the next as clutter)
                    d = float(np.linalg.norm(z - t.anchor))
                    # (once a sighting this frame has gone on its run, others
                    # are not the white: seed 579's, stopped dead 217 mm off,
                    # had its run cut by a hand read 0.85 white by the cushion)
                    if d < c.reacquire_far_mm and best is None and not (
                            t.rolling and t.rolling[-1][0] == self._frame) and (
                            rolled := self._rolled(t, z, kp, d)) is not None and (
                            self._rolled_from_place(t, rolled)):
                        self._set_moving(t, rolled, dets, j)
                        lost.remove(t)
                        used.append(k)
                        break
                    if d < c.reacquire_far_mm or kp < c.reacquire_far_prob:
                        continue
                else:
                    if not self._placeable(t, z, moving=False):
                        continue
                    d = float(np.linalg.norm(z - t.last_seen_mm))
                    # (held in the jaws, it can only have come back out of
                    # them, no faster than it went in: seeds 786's and 814's
                    # reds, lost slowly into a top pocket, had their tracks
                    # taken by reds 0.9 and 2.5 m away, and were not potted)
                    step = c.jaws_speed_mm if t.in_jaws else c.reacquire_step_mm
                    # (nor faster than it went, give or take: nothing on the
                    # table speeds a ball up unseen but a faster ball; seed
                    # 1844's red, lost at 68 mm a frame into the top-left
                    # pocket, had its track taken 4 frames on by a red of the
                    # pack 1180 mm away, and its pot was missed)
                    if (lost_speed := self._lost_speed(t)) > 0.0:
                        step = min(step, c.reacquire_speed_share * lost_speed
                                   + c.reacquire_slack_mm)
                    if d > step * (t.missed + 1):
                        continue
                    # (lost long, it may be anywhere it can have rolled, so
                    # one sighting is not enough: seed 1890's white, off the
                    # table over the top cushion in the break and held where
                    # it was lost, had its track taken 97 frames later by a
                    # red of the pack read white for one frame, and was never
                    # gone from the table)
                    if t.missed > c.long_lost_frames and not any(
                            k_ == kind and float(np.linalg.norm(q - z))
                            <= c.long_lost_step_mm for k_, q in sure_before):
                        continue
                if d < best_d:
                    best, best_d = t, d
            if best is None or not self._clear(z, skip=best) or (
                    self._seen_there(z, best)):
                continue
            lost_for = best.missed + 1
            last = best.last_seen_mm
            self._restart(best, z)
            if not sure:
                # (on along its line: at the mean speed it went there)
                best.state[2:] = (z - last) / lost_for
            self._seen(best, dets, j)
            lost.remove(best)
            used.append(k)
        white = [t for t in lost if t.kind == BallKind.WHITE]
        if white and blurred and len(before):
            self._reacquire_blurred(white[0], dets, idx, blurred, before, used)
        return used

    def _reacquire_struck(self, t: Track, dets: Detections, idx: np.ndarray,
                          taken: set[int], used: list[int]) -> None:
        """Take back the colour ``t``, held hidden at rest since a moving ball
        came to touch it (struck, and blurred out of sight at once), at
        sightings of its kind ``ahead_prob`` likely or more in two frames
        running, beyond a ball's width from its place and running on away
        from it as fast as a blurred ball goes (``blur_step_mm`` a frame or
        more; ``Track.rolling``): sightings too far off for a ball at
        rest to take (``max_step_mm``), and, blurred, less sure of its kind
        than a new track needs (seed 2649's black, struck off its spot at
        2.2 m/s towards a middle pocket, unseen for 4 frames, then read black
        0.4-0.6 all the way from 450 mm off: held on its spot, its pot was
        missed). Positions in ``idx`` of the detections taken go to ``used``."""
        c = self.config
        assert t.anchor is not None
        if t.rolling and t.rolling[-1][0] != self._frame - 1:
            t.rolling = []
        col = KINDS.index(t.kind)
        wide = 2 * self.spec.ball_radius + c.hold_mm
        best: tuple[int, np.ndarray] | None = None  # (position in idx, mm)
        best_p = 0.0
        for k in range(len(idx)):
            kp = float(dets.probs[idx[k], col])
            if k in taken or k in used or kp < max(c.ahead_prob, best_p):
                continue
            z = dets.xy_mm[idx[k]].astype(np.float64)
            d = float(np.linalg.norm(z - t.anchor))
            if d <= wide or d > c.reacquire_step_mm * (t.missed + 1):
                continue
            if t.rolling:
                prev = t.rolling[-1][1]
                step, out = z - prev, prev - t.anchor
                n = float(np.linalg.norm(step))
                if not c.blur_step_mm <= n <= c.max_step_mm or float(
                        step @ out) < 0.9 * n * float(np.linalg.norm(out)):
                    continue
            best, best_p = (k, z), kp
        if best is None:
            t.rolling = []
            return
        k, z = best
        t.rolling.append((self._frame, z))
        if len(t.rolling) >= 2 and self._clear(z, skip=t):
            self._set_moving(t, t.rolling[-2:], dets, int(idx[k]))
            used.append(k)

    def _sure_sightings(self, dets: Detections, idx: np.ndarray
                        ) -> list[tuple[BallKind, np.ndarray]]:
        """The frame before's sightings sure of their kind (``reacquire_prob``:
        kind and (2,) mm each; none unless it was the last frame). This
        frame's are remembered."""
        sure = [(KINDS[int(dets.kind[j])], dets.xy_mm[j].astype(np.float64))
                for j in map(int, idx)
                if dets.probs[j, int(dets.kind[j])] >= self.config.reacquire_prob]
        prev = self._sure_before
        self._sure_before = (self._frame, sure)
        return prev[1] if prev[0] == self._frame - 1 else []

    def _blurred_whites(self, dets: Detections, idx: np.ndarray, taken: set[int]
                        ) -> tuple[list[int], np.ndarray]:
        """This frame's blurred sightings of the white (positions in ``idx``,
        see ``TrackerConfig.blur_ball_prob``) and the frame before's ((K, 2)
        mm; none unless it was the last frame). This frame's are remembered."""
        c = self.config
        w = KINDS.index(BallKind.WHITE)
        out = [k for k in range(len(idx)) if k not in taken
               and dets.ball_prob[idx[k]] >= c.blur_ball_prob
               and dets.probs[idx[k], w] >= c.blur_share * dets.ball_prob[idx[k]]]
        prev = self._blurred_white
        self._blurred_white = (self._frame, dets.xy_mm[idx[out]].astype(np.float64))
        if prev[0] != self._frame - 1:
            return out, np.zeros((0, 2))
        return out, prev[1]

    def _ahead(self, t: Track, z: np.ndarray) -> bool:
        """Is ``z`` (table mm) on the line ``t``, lost while moving, was rolling
        along when last seen, and no farther on than it can have gone since?
        A colour (one of its kind) so seen is taken back though its sighting
        is unsure of its kind (``_reacquire``): blurred, a fast ball reads
        less surely (seed 1535's pink, struck at 2.3 m/s towards the
        baulk-left pocket, read pink 0.5-0.75 along its run; 10 frames in a
        row read as no ball at all, it was held where last seen, and its two
        sightings on, the last in the pocket's mouth, read pink 0.55 and 0.7,
        were left: its pot was missed). A red or the white is not: a red ahead
        may be another red, and the player's hand reads as the white."""
        if len(t.recent) < 2:
            return False
        v = _recent_velocity(t)
        speed = float(np.linalg.norm(v))
        if speed < self.config.blur_step_mm:
            return False
        off = z - t.last_seen_mm
        along = float(off @ v) / speed
        aside = abs(float(off[0] * v[1] - off[1] * v[0])) / speed
        return 0.0 < along <= speed * (t.missed + 1) and aside <= (
            2.0 * self.spec.ball_radius + 0.1 * along)

    def _reacquire_blurred(self, t: Track, dets: Detections, idx: np.ndarray,
                           blurred: list[int], before: np.ndarray,
                           used: list[int]) -> None:
        """Take the lost white ``t`` back at a blurred sighting that follows
        one of the frame before a rolling ball's step away (a steady run, not
        a hand), far from where it was held at rest."""
        c = self.config
        for k in blurred:
            if k in used:
                continue
            z = dets.xy_mm[idx[k]].astype(np.float64)
            if t.anchor is not None and np.linalg.norm(z - t.anchor) < (
                    c.reacquire_far_mm):
                continue
            step = np.linalg.norm(before - z, axis=1)
            run = (step > c.hold_mm) & (step <= c.reacquire_step_mm)
            # (the cue ball in hand rolls from the D; the cue's tip steps
            # about the player's hand elsewhere: seed 2571's)
            if not self._placeable(t, z, moving=False):
                run &= [self._in_d(q) for q in before]
            if not run.any():
                continue
            if not self._clear(z, skip=t):
                continue
            self._restart(t, z)
            self._seen(t, dets, int(idx[k]))
            used.append(k)
            return

    def _unanchor(self, t: Track) -> None:
        """``t`` is moving: note where it left its place (``Track.left``)."""
        if t.anchor is not None:
            t.left = (self._frame, t.anchor.copy())
        t.anchor = None
        t.reads.clear()

    def _restart(self, t: Track, z: np.ndarray) -> None:
        """Put ``t`` in motion from ``z``, its speed unknown."""
        self._unanchor(t)
        t.pending = []
        t.rolling = []
        t.recent.clear()
        t.recent.append(z.copy())
        t.near.clear()
        t.state = np.array([z[0], z[1], 0.0, 0.0])
        t.cov = np.diag([self.config.meas_sigma_mm**2] * 2 + [60.0**2] * 2)

    def _match(self, t: Track, dets: Detections, j: int) -> bool:
        """Take detection ``j`` for ``t``; False when it is refused."""
        c = self.config
        z = dets.xy_mm[j].astype(np.float64)
        if t.status == TrackStatus.POTTED and t.anchor is None:
            if dets.probs[j, KINDS.index(t.kind)] < c.reacquire_prob:
                if self._frame not in t.unsure_unpot:
                    t.unsure_unpot.append(self._frame)
                if len(t.unsure_unpot) < c.unpot_sightings:
                    return False
            # not potted after all: in the jaws, where it vanished; followed
            # as moving (looked for in every frame) until it settles: it may
            # be rattling back out (seed 390's cue ball, held at rest where
            # it was seen again, crept 20 mm out unseen and was taken for
            # potted a second time)
            self._restart(t, z)
            t.potted_at = -1
            self._seen(t, dets, j)
            return True
        if t.anchor is not None:
            d = float(np.linalg.norm(z - t.anchor))
            if d <= c.hold_mm:
                t.still_at = self._frame
                t.pending = []
                t.rolling = []
                t.recent.append(z.copy())
                t.near.append((self._frame, z.copy()))
                creep = self._creeping(t)
                if creep:
                    self._set_moving(t, list(t.near)[-creep:], dets, j)
                    return True
                self._refine_anchor(t)
                self._seen(t, dets, j)
                return True
            if t.pending and t.pending[-1][0] < self._frame - 2:
                t.pending = []
            kp = float(dets.probs[j, KINDS.index(t.kind)])
            if kp < c.blur_prob and not (d > c.release_mm and self._touched(t)):
                # unsure of its kind: no evidence that this ball moved (unless
                # a moving ball has just touched it: then a blurred sighting
                # away from it, of any colour, may be it, struck; seed 419's
                # red, blurred into the cloth, read as brown)
                self._seen_at_anchor(t, dets, j, d)
                return True
            t.pending.append((self._frame, z.copy()))
            rolled = self._rolled(t, z, kp, d)
            if rolled is None and not self._released(
                    t, kp < c.release_prob and (self._untouchable(t)
                                                or self._long_hidden_white(t))):
                if len(t.pending) > 1 and not self._consistent(t, t.pending[-2:]):
                    t.pending = t.pending[-1:]
                # not (yet) a motion: the ball stays at its anchor
                if t.status == TrackStatus.POTTED:
                    return False
                self._seen_at_anchor(t, dets, j, d)
                return True
            self._set_moving(t, rolled if rolled is not None else t.pending,
                             dets, j)
            return True
        if t.missed > c.coast_frames and t.meas_mm is not None and float(
                np.linalg.norm(z - t.meas_mm)) <= c.hold_mm:
            # lost a while, and found where it was last seen: it had stopped
            # there (out of the searched boxes, with nothing to call for a
            # look) if it was all but stopped when lost; a ball lost faster
            # cannot have stopped there: it is passing back (off a cushion)
            if self._lost_speed(t) <= c.stopped_speed_mm:
                self._rest_at(t, z)
            else:
                self._restart(t, z)
            self._seen(t, dets, j)
            return True
        self._correct(t, z)
        t.recent.append(z.copy())
        self._seen(t, dets, j)
        if len(t.recent) >= c.settle_frames:
            last = self._last_readings(t)
            mean = last.mean(axis=0)
            recent = np.array(t.recent)
            if (np.linalg.norm(last - mean, axis=1).max() <= c.settle_mm
                    and _drift(recent) <= c.settle_speed_mm
                    and _line_misfit(recent) <= c.settle_line_mm):
                self._rest_at(t, mean)
        return True

    def _rolled(self, t: Track, z: np.ndarray, kp: float, d: float
                ) -> list[tuple[int, np.ndarray]] | None:
        """Add a sighting of ``t`` at rest, ``d`` mm from its anchor, whose kind
        is ``kp`` likely; the white's run of sure sightings when its last three,
        in successive frames, more than a ball's width from its anchor, roll
        steadily (each step ``rolling_step_mm`` or more, on one line; the run
        begun, they need only be off its place), else None. The white that
        strikes a ball full stops all but dead beside it, and may then roll off
        across its first line (seed 427's, 118 mm from its place after a frame,
        then 5 mm a frame: it was held at rest for 11 frames, and the red it
        struck, blurred, was never released); a hand or the cue's butt read as
        the white does not roll steadily. Nearer than a ball's width, the run
        must begin in the frame after the white was last seen at its place,
        beside a ball it can have struck (``_struck_beside``), and roll: seed
        1317's, struck into a red 44 mm off, screwed back past its place at 3
        mm a frame, was held at rest until it was past it, and its stroke,
        with a pot, was not found."""
        c = self.config
        if t.rolling and t.rolling[-1][0] != self._frame - 1:
            t.rolling = []
        # (once off, it may screw back towards its place: seed 586's, after
        # a 63 mm leap into a red, came back at 6 mm a frame to within 28 mm,
        # held at rest all the way)
        wide = 2 * self.spec.ball_radius + c.hold_mm
        off = c.hold_mm if t.rolling else wide
        if t.kind == BallKind.WHITE and not t.rolling and c.release_mm < d <= off and (
                self._frame == t.still_at + 1 and self._struck_beside(t, z)):
            off = c.release_mm
        if t.kind != BallKind.WHITE or kp < c.reacquire_far_prob or d <= off:
            t.rolling = []
            return None
        t.rolling.append((self._frame, z.copy()))
        if len(t.rolling) < 3:
            return None
        steps = np.diff(np.array([p for _, p in t.rolling[-3:]]), axis=0)
        n = np.linalg.norm(steps, axis=1)
        assert t.anchor is not None
        near = float(np.linalg.norm(t.rolling[0][1] - t.anchor)) <= wide
        if near and self._through_a_ball_at_rest(t, t.rolling):
            return None
        if not near and self._stopped_dead(t, n):
            return list(t.rolling)
        if n.min() < c.rolling_step_mm or n.max() > c.max_step_mm:
            return None
        if float(steps[0] @ steps[1]) < 0.9 * float(n[0] * n[1]):
            return None
        return list(t.rolling)

    def _stopped_dead(self, t: Track, steps: np.ndarray) -> bool:
        """Did the white, whose sure sightings away from its place (``rolling``)
        step ``steps`` mm a frame, leave its place faster than a hand moves a
        ball and stop all but dead there? Its first sighting came within
        ``dead_stop_frames`` of its last at its place, more than a ball's width
        away, beside a ball at rest there (or lately), and it barely moves
        since: it stunned into that ball (seed 731's, 150 mm off in two
        frames, then 1-3 mm a frame, was held at its place, unseen, and the
        stroke was not found). A hand read as the white, still, is not beside
        a ball the moment the white is hidden; nor is a ball at rest read as
        the white, whose sightings lie where that ball rests (seed 1707's
        black, the cue's shaft across it at the strike, read as the white on
        its place 115 mm from it: the white was taken to stop dead there, and
        its stroke to start 6 frames late)."""
        c = self.config
        f0, first = t.rolling[0]
        if f0 - t.still_at > c.dead_stop_frames or float(
                steps.max()) > c.dead_stop_step_mm:
            return False
        if self._through_a_ball_at_rest(t, t.rolling):
            return False
        return self._struck_beside(t, first)

    def _struck_beside(self, t: Track, q: np.ndarray) -> bool:
        """Is the white's first sighting off its place, ``q``, within
        ``dead_stop_gap_mm`` of touching a ball at rest there, or lately (it
        may have set off already)? (``_stopped_dead``, ``_rolled``)"""
        places = [u.anchor if u.anchor is not None else u.left[1]
                  for u in self.active() if u is not t and (
                      u.anchor is not None or (
                          u.left is not None and u.left[0] >= t.still_at))]
        reach = 2 * self.spec.ball_radius + self.config.dead_stop_gap_mm
        return any(float(np.linalg.norm(p - q)) <= reach for p in places)

    def _rolled_from_place(self, t: Track, run: list[tuple[int, np.ndarray]]
                           ) -> bool:
        """Can the white at rest, last seen at its place (``Track.still_at``),
        have rolled to where ``run`` (``_rolled``) begins at its speed? (The
        cue's tip, drawn back while the ball is hidden under the cue, runs as
        steadily, but from far behind it.)"""
        assert t.anchor is not None
        (f0, p0), (f1, p1) = run[0], run[1]
        speed = float(np.linalg.norm(p1 - p0)) / max(f1 - f0, 1)
        reach = 2 * self.spec.ball_radius + self.config.hold_mm + speed * (
            f0 - t.still_at)
        return float(np.linalg.norm(p0 - t.anchor)) <= reach

    def _touched(self, t: Track, slack_mm: float | None = None) -> bool:
        """Has a moving ball lately come within touching distance of ``t``'s
        anchor (on its last few measurements, or between them), give or take
        ``slack_mm`` (``touch_mm`` by default)?"""
        a = t.anchor
        assert a is not None
        reach = 2 * self.spec.ball_radius + (
            self.config.touch_mm if slack_mm is None else slack_mm)
        for u in self.active():
            if u is t or u.anchor is not None or u.seen_at < self._frame - 3:
                continue
            pts = [*u.recent, u.state[:2]]  # (its last 8 measurements)
            for q0, q1 in itertools.pairwise(pts):
                if segment_distance(a, q0, q1) <= reach:
                    return True
        return False

    def _untouchable(self, t: Track) -> bool:
        """Has no moving ball lately come near ``t``, an object ball at rest
        (``_touched``), and none is lost from sight? Then two blurred sightings
        do not set it off, a steady run of three must (seed 736's black,
        hidden by the player walking in behind it, was set off by two
        sightings of his dark clothes read 0.54-0.58 black)."""
        return t.kind != BallKind.WHITE and not self._touched(t) and not any(
            u.anchor is None and u.status == TrackStatus.HIDDEN
            for u in self.active())

    def _long_hidden_white(self, t: Track) -> bool:
        """Is ``t`` the white, held at rest unseen ``reacquire_hidden`` frames
        or more? The cue may have struck it out of sight, but then, as for an
        object ball nothing can have struck, two sightings unsure of its kind
        do not set it off, a run of three blurred ones must (``_released``):
        seed 3262's, hidden by the player for 13 frames, was set off 210 mm
        away by his bridge hand, read 0.74-0.78 white, and its stroke began 41
        frames early."""
        return (t.kind == BallKind.WHITE
                and t.missed >= self.config.reacquire_hidden)

    @staticmethod
    def _lost_speed(t: Track) -> float:
        """How fast ``t`` moved between its last two measurements, mm a frame
        (0 with fewer)."""
        if len(t.recent) < 2:
            return 0.0
        return float(np.linalg.norm(t.recent[-1] - t.recent[-2]))

    def _seen_at_anchor(self, t: Track, dets: Detections, j: int, d: float) -> None:
        """Detection ``j``, ``d`` mm from the anchor of ``t``, leaves it at rest:
        it is the ball half hidden (a centre off by up to a ball's width), or,
        farther, not the ball at all (then the ball is not seen this frame).
        Only a sighting read most likely as its kind can show it nudged: a disc
        fitted across it and a ball touching it cannot (seed 736's white,
        against a red, read 0.4-0.6 red 27 mm off for 10 frames, was moved
        there, then "rolled" between there and its true place for a second)."""
        c = self.config
        if c.hold_mm < d <= c.release_mm and int(dets.kind[j]) == KINDS.index(
                t.kind) and self._nudged(t, dets.xy_mm[j]):
            self._seen(t, dets, j)
        elif d <= 2 * self.spec.ball_radius + c.hold_mm:
            self._seen(t, dets, j, keep_meas=True)
        elif self._put_down(t, dets, j):
            self._seen(t, dets, j)
        else:
            t.status = TrackStatus.HIDDEN
            t.missed += 1

    def _put_down(self, t: Track, dets: Detections, j: int) -> bool:
        """Was the cue ball ``t``, at rest in the D and not seen there since
        the last frame, put down by hand elsewhere in the D, where detection
        ``j`` sees it surely (``reacquire_far_prob``)? So it was once the last
        ``nudge_frames`` such sightings lie together (``_nudged``): it rests
        there now. Seed 1950's, in hand, hidden by the player and put down 70
        mm off, was seen there surely for ten frames, each sighting taken for
        not the ball; it was found only when struck, and its stroke began 21
        frames early."""
        z = dets.xy_mm[j]
        a = t.anchor
        assert a is not None
        return (t.kind == BallKind.WHITE and t.missed > 0
                and float(dets.probs[j, KINDS.index(t.kind)])
                >= self.config.reacquire_far_prob
                and self._in_d(a) and self._in_d(z)
                and self._nudged(t, z))

    def _nudged(self, t: Track, z: np.ndarray) -> bool:
        """Add a sighting of ``t`` a little off its anchor; when the last
        ``nudge_frames`` of them, within twice as many frames, lie together
        (within ``settle_mm``), the ball was nudged (the pack, stirred by the
        break, settles a few mm from where it stood): it rests there now."""
        c = self.config
        t.nudged.append((self._frame, np.asarray(z, np.float64).copy()))
        while len(t.nudged) > c.nudge_frames:
            t.nudged.popleft()
        if (len(t.nudged) < c.nudge_frames
                or self._frame - t.nudged[0][0] >= 2 * c.nudge_frames):
            return False
        pts = np.array([p for _, p in t.nudged])
        mean = pts.mean(axis=0)
        if np.linalg.norm(pts - mean, axis=1).max() > c.settle_mm:
            return False
        self._rest_at(t, mean)
        return True

    def _set_moving(self, t: Track, pts: list[tuple[int, np.ndarray]],
                    dets: Detections, j: int) -> None:
        """Release ``t`` from its anchor: it was seen rolling away along ``pts``
        (``(frame, (2,) mm)``, the last this frame's detection ``j``)."""
        c = self.config
        run = self._lead_in(t, pts[0]) + pts
        self.releases.append(Release(t.track_id, tuple(run)))
        if t.anchor is not None:
            self._touch_on_way(t, t.anchor, run[0][1])
        (f0, p0), (f1, p1) = pts[-2], pts[-1]
        v = (p1 - p0) / max(f1 - f0, 1)
        self._unanchor(t)
        t.pending = []
        t.rolling = []
        # (the run is its path so far: a ball it passed is touched; seed
        # 1422's white, hidden at its place as it was struck, was released
        # along a run that grazed a red, which set off read 0.9 brown; with
        # only the sightings after the run, the red was not touched, and its
        # sightings, unsure of its kind, were taken for it still at rest)
        t.recent.clear()
        for f, p in pts:
            if f >= pts[-1][0] - len(pts) + 1:  # (successive frames only)
                t.recent.append(p.copy())
        t.state = np.array([p1[0], p1[1], v[0], v[1]])
        t.cov = np.diag([c.meas_sigma_mm**2] * 2 + [20.0**2] * 2)
        self._seen(t, dets, j)

    def _touch_on_way(self, t: Track, a: np.ndarray, b: np.ndarray) -> None:
        """Mark touched (``Track.touched_at``) the balls at rest that ``t``,
        set off from ``a`` and first seen away at ``b`` (both (2,) mm), passed
        within ``feather_mm`` of touching on the way between: unseen, it may
        have struck one (seed 3556's white, placed in the D beside the green,
        was struck into it under the player and first seen 212 mm on; the
        green, run across the table read 0.99 green, was held at its spot,
        hidden, for want of a moving ball seen near it)."""
        reach = 2 * self.spec.ball_radius + self.config.feather_mm
        for u in self.active():
            if u is not t and u.anchor is not None and segment_distance(
                    u.anchor, a, b) <= reach:
                u.touched_at = self._frame

    def _lead_in(self, t: Track, first: tuple[int, np.ndarray]
                 ) -> list[tuple[int, np.ndarray]]:
        """The detections near the anchor just before a release whose first
        sighting away is ``first`` that already lay on the way out (a slow
        start)."""
        a = t.anchor
        assert a is not None
        out: list[tuple[int, np.ndarray]] = []
        nxt_f, nxt = first
        direction = nxt - a
        for f, p in reversed(t.near):
            off = p - a
            d = float(np.linalg.norm(off))
            if (nxt_f - f != 1 or d < 1.5 or d >= float(np.linalg.norm(nxt - a))
                    or float(off @ direction) < 0.9 * d * np.linalg.norm(direction)):
                break
            out.insert(0, (f, p))
            nxt_f, nxt = f, p
        return out

    def _creeping(self, t: Track) -> int:
        """How many of the last sightings of ``t`` near its place
        (``Track.near``) show it, at rest and lately touched
        (``Track.touched_at``), creeping off it; 0 where they do not.

        They do where, in successive frames, the last ``CREEP_STEPS`` each lie
        ``creep_step_mm`` or more farther from it than the one before, on one
        line (``_steps_away``), or the last ``CREEP_FIT_SIGHTINGS`` lie on a
        line leading away from it (``_fits_away``: seed 3166's red, touched by
        a red and read creeping 8 mm at 1 mm a frame across the view and up
        to 1.8 mm off either way in depth, failed the steps, was held at its
        place, and its stroke ended 6 frames early); and no ball overlapping
        it in the image lies on its side of the way (a disc fitted across both
        is pulled towards the other; a ball pushed goes away from the one
        pushing it: seed 2098's brown, pushed 15 mm off its spot by a red
        rolling to rest against it, hidden in part behind the red, was held;
        the stroke closed 11 frames early) (seed 823's black, nudged by the
        white's last roll, crept 17 mm at 1.5 mm a frame: held at its place,
        it was at rest to the stroke, which was closed 12 frames early with
        the white read touching it where it had stood)."""
        c = self.config
        if t.touched_at < 0 or self._frame - t.touched_at > c.creep_touch_frames:
            return 0
        frames = np.array([f for f, _ in t.near])
        # (the sightings in successive frames up to this one)
        run = len(frames) - int(np.flatnonzero(np.diff(frames, prepend=-2) != 1)[-1])
        a = t.anchor
        assert a is not None
        off = np.array([p for _, p in t.near]) - a
        if run >= CREEP_FIT_SIGHTINGS and _fits_away(off[-CREEP_FIT_SIGHTINGS:]):
            n = CREEP_FIT_SIGHTINGS
        elif run >= CREEP_STEPS and _steps_away(off[-CREEP_STEPS:], c.creep_step_mm):
            n = CREEP_STEPS
        else:
            return 0
        if any(float(np.linalg.norm(u.xy_px - t.xy_px)) < OVERLAP_SHARE * (
                u.radius_px + t.radius_px) and float(off[-1] @ (u.state[:2] - a)) > 0
               for u in self.active() if u is not t):
            return 0
        return n

    def _refine_anchor(self, t: Track) -> None:
        """Follow a small, steady offset of the detections (a ball settling)."""
        if len(t.recent) < t.recent.maxlen:  # type: ignore[operator]
            return
        pts = np.array(t.recent)
        med = np.median(pts, axis=0)
        spread = float(np.linalg.norm(pts - med, axis=1).max())
        off = float(np.linalg.norm(med - t.anchor))  # type: ignore[operator]
        if spread <= 2.0 and 0.5 < off <= self.config.hold_mm:
            t.anchor = med
            t.state[:2] = med

    def _released(self, t: Track, unsure: bool = False) -> bool:
        """Do the pending detections show the ball moving away from its anchor?
        ``unsure``: the last is unsure of its kind, and nothing seen can have
        struck the ball (``_untouchable``), or it is the white long hidden
        (``_long_hidden_white``): a run of three must show it, each
        step at least ``blur_step_mm`` (a ball is read unsure as it leaves when
        blurred, struck fast; seed 1302's red, 190 mm from the last ball
        moving, was set off by the player's hand and cue over the pack, read
        0.37-0.66 red in a steady run at 4-5 mm a frame). A run with a sighting
        nearer than ``clear_mm`` to where another ball rests does not: a ball
        cannot pass through another (seed 1686's red, hidden by the player's
        bridge hand two frames after the table came to rest, was set off by
        the hand read red 68 then 25 mm from it, 46 then 21 mm from two reds
        of the pack, and its track followed the hand about the pack)."""
        c = self.config
        pts = t.pending
        if len(pts) < 2:
            return False
        a = t.anchor
        assert a is not None
        run = [pts[-1]]
        for p in reversed(pts[:-1]):
            if run[0][0] - p[0] > 2:
                break
            run.insert(0, p)
        if len(run) < 2:
            return False
        dist = float(np.linalg.norm(run[-1][1] - a))
        if len(run) < 3 and (unsure or dist <= c.release_mm or (
                t.kind == BallKind.WHITE
                and float(np.linalg.norm(run[0][1] - a)) <= c.release_mm)):
            # (nor two sightings, the first near its place: the cue's tip,
            # still beside the white as the player addresses it, and the white
            # read off its place under the cue; seed 736's stroke began 22
            # frames early; a third sighting must show it still going)
            return False
        if unsure and any(float(np.linalg.norm(q1 - q0)) < c.blur_step_mm * (
                f1 - f0) for (f0, q0), (f1, q1) in itertools.pairwise(run)):
            return False
        jump = float(np.linalg.norm(run[-1][1] - run[-2][1])) / max(
            run[-1][0] - run[-2][0], 1)
        if jump > c.fast_step_mm and len(run) < 3 and not self._even_leaps(t, run):
            return False  # a leap: the next sighting must show it still going
        if dist <= c.hold_mm + 6.0:
            return False
        if self._through_a_ball_at_rest(t, run):
            return False
        return self._consistent(t, run)

    def _through_a_ball_at_rest(self, t: Track, run: list[tuple[int, np.ndarray]]
                                ) -> bool:
        """Does a sighting of ``run`` lie nearer than ``clear_mm`` to where a
        ball other than ``t`` rests? A ball cannot pass through another: that
        sighting is the ball at rest, read off (``_released``,
        ``_stopped_dead``)."""
        return any(u.anchor is not None for _, q in run
                   for u in self._near(q, self.config.clear_mm, skip=t))

    def _even_leaps(self, t: Track, run: list[tuple[int, np.ndarray]]) -> bool:
        """Do two sightings in successive frames, the first in the frame after
        ``t`` was last seen at rest, leap from its anchor in two even steps on
        one line (within ``even_leap_share``)? A ball struck hard does; a hand
        or the cue read as the ball does not. Seed 480's cue ball, struck at 3
        m/s, was seen 100 then 196 mm from its place, blurred into the red it
        struck in the third frame, and was held at rest till it was past it."""
        c = self.config
        a = t.anchor
        assert a is not None
        (f0, p0), (f1, p1) = run[-2], run[-1]
        if f0 != t.seen_at + 1 or f1 != f0 + 1:
            return False
        lead, step = p0 - a, p1 - p0
        n0, n1 = float(np.linalg.norm(lead)), float(np.linalg.norm(step))
        return (abs(n1 - n0) <= c.even_leap_share * max(n0, n1)
                and float(lead @ step) >= 0.98 * n0 * n1)

    def _consistent(self, t: Track, run: list[tuple[int, np.ndarray]]) -> bool:
        """Points moving steadily away from the anchor along one line, and not
        stopping short: a ball struck hard keeps rolling, whereas a hand or the
        cue's butt read as the ball, far from it, barely moves."""
        a = t.anchor
        assert a is not None
        off = [q - a for _, q in run]
        dist = [float(np.linalg.norm(o)) for o in off]
        # the leap from where it was last seen at its place (not from a sighting
        # off it taken for the ball half hidden: seed 506's black, pushed off
        # its spot at 2 mm a frame by the white against it in the image, was
        # held there, each sighting 28-38 mm off "leaping" from the last)
        last = t.still_at if t.still_at >= 0 else t.seen_at
        if t.missed:
            # (or from the last frame before it was missed: at rest where no
            # search looked, it was there, however long ago it was last
            # seen; seed 526's black, hidden by the player, then read 285 mm
            # away on his dark sleeve, stopped dead, seemed to have crept)
            last = max(last, self._frame - t.missed - 1)
        step = dist[0] / max(run[0][0] - last, 1) if last >= 0 else 0.0
        for k in range(1, len(run)):
            if dist[k] <= dist[k - 1] + 1.0:
                return False
            cos = float(off[k] @ off[k - 1]) / max(dist[k] * dist[k - 1], 1e-9)
            if cos < 0.9:
                return False
            v = float(np.linalg.norm(run[k][1] - run[k - 1][1])) / max(
                run[k][0] - run[k - 1][0], 1)
            if v < 0.5 * step - 10.0:
                return False
            step = v
        return True

    def _unmatched(self, t: Track) -> None:
        c = self.config
        t.missed += 1
        if t.anchor is not None:
            t.status = TrackStatus.HIDDEN
            if t.pending and t.pending[-1][0] < self._frame - 2:
                t.pending = []
            in_mouth = (t.missed > c.coast_frames
                        and self._pocket_gap(t.anchor) < 0.5 * c.pocket_mm)
            creep = (_drift_velocity(np.array(t.recent)) if len(t.recent) >= 2
                     else np.zeros(2))
            if in_mouth and not t.stopped_unseen and self._short_of_fall(
                    t.anchor if t.meas_mm is None else t.meas_mm, creep):
                # at rest in a pocket's jaws, creeping too slowly to reach the
                # fall: gone from sight, it is still there, hidden (seed 1112's
                # red, crept to 58 mm from the fall's centre and lost, had been
                # taken for potted; the white knocked it in a stroke later)
                t.stopped_unseen = True
                t.reach_mm = self._run_mm(creep)
                t.touched_at = -1
            if in_mouth and (
                    t.touched_at >= t.rest_since if t.stopped_unseen
                    else max(t.rest_since, t.touched_at)
                    >= self._frame - t.missed - c.balance_frames) and (
                    t.covered_at != self._frame):
                # at rest in a pocket's mouth (in the jaws) a moment, and gone
                # where detection looked: it dropped (seen again there, it is
                # back); one at rest there a while and untouched did not: were
                # it to fall, it would be put back (seed Part 3 rule 9a, c), so
                # it is hidden (seed 560's red, in the jaws for 25 s, was taken
                # for potted when the player walked in front of it); one that
                # stopped there unseen drops once a ball has come to touch it;
                # and one whose place this frame shows covered is still there,
                # out of the detector's reach, until its place is seen bare
                # (seed 1350's red, at rest 11 mm from the top-left pocket's
                # point, deep in the jaws where detection asks for more, read
                # 0.90 to 0.94 covered there, and was taken for potted)
                self._pot(t)
            return
        # lost while moving (blurred, or under an arm): coast a few frames on
        # the motion model, looking for it ahead; a ball lost on its way into a
        # pocket is potted, and its track ends there
        near_pocket = self._pocket_gap(t.state[:2])
        t.near_pocket = min(t.near_pocket, near_pocket) if t.missed > 1 \
            else near_pocket
        t.status = TrackStatus.HIDDEN
        settling = t.meas_mm is not None and len(t.recent) >= 2 and (
            self._run_mm(_drift_velocity(np.array(t.recent))) <= c.hold_mm)
        # (one so slow that it stops within its hold of where it was last
        # seen is not coasted away from the pockets: its filtered speed may be
        # the noise of its sightings; seed 2522's white, 0.5 mm a frame, was
        # taken by a disc 97 mm off the frame it was hidden)
        if t.missed <= c.coast_frames and t.speed > 1.0 and not (
                settling and t.near_pocket >= 2 * c.pocket_mm):
            return
        reach = c.pocket_mm + min(3 * t.speed, c.pocket_mm)
        if (t.near_pocket < reach or near_pocket < c.pocket_mm) and (
                self._towards_pocket(t)):
            if self._stopped_in_jaws(t):
                assert t.meas_mm is not None
                reach = self._run_mm(_recent_velocity(t))
                self._rest_at(t, t.meas_mm)
                t.touched_at = -1
                t.stopped_unseen = True
                t.reach_mm = reach
                t.status = TrackStatus.HIDDEN
                return
            if t.missed > c.jaws_wait_frames or max(
                    self._lost_speed(t), t.speed) >= c.jaws_speed_mm:
                self._pot(t)
                return
            # slow into the jaws, it may rattle back out (seed 710's red, lost
            # at 7 mm a frame in a middle pocket's mouth, came out 10 frames
            # on): held where last seen a while, hidden, before it is potted
            # (the stroke stays open meanwhile: it was rolling when last seen)
            t.in_jaws = True
        if settling and not t.in_jaws:
            # so slow when lost that it stops within its hold of where it was
            # last seen: at rest there (amid its last readings), hidden, it
            # leaves only when struck, as a ball hidden at rest does (seed
            # 2476's white and brown, lost under the player before they had
            # settled: the white's track was taken 645 mm away by a disc read
            # 0.92 white, a hand or the cue, an extra stroke; the brown's 430
            # mm away by the white, struck, read 0.12 brown, which was named
            # first struck). Not one lost faster: seed 2354's red, lost
            # rolling at 3 mm a frame, stopped 32 mm on, unseen.
            last_seen = self._frame - t.missed
            self._rest_at(t, self._last_readings(t).mean(axis=0))
            t.rest_since = t.still_at = last_seen
            return
        # held where last seen (not near a pocket, or a while in its jaws),
        # its place no longer tied to a motion: the covariance of place and
        # speed goes with the speed (left, the matrix had negative variances,
        # and the gate of the next sightings was no gate: seed 3492's black,
        # seen again coming back out of a far corner's jaws, had none left
        # for its speed)
        if t.meas_mm is not None:
            t.state[:2] = t.meas_mm
        t.state[2:] = 0.0
        t.cov[:2, 2:] = t.cov[2:, :2] = 0.0
        t.cov[2:, 2:] = np.eye(2) * 1.0

    def _stopped_in_jaws(self, t: Track) -> bool:
        """Did ``t``, lost moving in a pocket's mouth, stop in its jaws,
        out of sight? Yes when, at the speed of its last few sightings, it
        stops short of the fall's centre, and cannot roll on into the fall
        (``TableSpec.rolls_into_fall``): seed
        1058's red, lost at 2.4 mm a frame 34 mm from a far corner, ran into
        the jaw and stopped there, hidden by it; taken for potted, it was
        then knocked in unseen by the next stroke but one, which was called a
        miss of every ball. Held there at rest, hidden, it drops once a ball
        comes to touch it."""
        if t.meas_mm is None or len(t.recent) < 2:
            return False
        return self._short_of_fall(t.meas_mm, _recent_velocity(t))

    def _short_of_fall(self, p: np.ndarray, v: np.ndarray) -> bool:
        """Does a ball at ``p`` (table mm), in a pocket's mouth, rolling at
        ``v`` (mm a frame), stop before the fall, in the jaws? (Middle pockets
        too: seed 1166's red, lost at 1 mm a frame in the middle pocket's
        jaws, stopped there 54 mm from the fall's centre; taken for potted,
        the stroke that knocked it in was called a miss.)"""
        if self._pocket_gap(p) >= 0.5 * self.config.pocket_mm:
            return False  # (not in a pocket's mouth)
        run = self._run_mm(v)
        # (one that would run on past the fall meets the jaws or the rail
        # there, fast: in or out, nothing here says; seed 1070's red, lost
        # at 7.8 mm a frame 44 mm wide of the fall's edge, dropped)
        falls = [(float(np.linalg.norm(np.asarray(f) - p)), r)
                 for f, r in self.spec.falls().values()]
        if any(d <= r for d, r in falls):
            return False  # (over the fall: it dropped)
        fall = min(d for d, _ in falls)
        return run < fall and not self.spec.rolls_into_fall(
            (float(p[0]), float(p[1])), (float(v[0]), float(v[1])), run)

    def _run_mm(self, v: np.ndarray) -> float:
        """How far a ball rolling at ``v`` (mm a frame) rolls on before it
        stops (``roll_decel_mm``)."""
        return float(v @ v) / (2.0 * self.config.roll_decel_mm)

    def _pot(self, t: Track) -> None:
        """``t`` dropped into a pocket this frame (its track ends there, unless
        it is seen again where it vanished: ``_unpottable``); one at rest from
        its place."""
        if t.anchor is not None:
            t.meas_mm = t.anchor.copy()
            t.anchor = None
        t.status = TrackStatus.POTTED
        t.potted_at = self._frame
        t.ran_into_jaws = False
        t.unsure_unpot = []
        t.state[2:] = 0.0

    def _pocket_gap(self, p: np.ndarray) -> float:
        """Distance (mm) from table point ``p`` to the nearest pocket point."""
        return float(np.min(np.linalg.norm(self._pockets - p, axis=1)))

    def _towards_pocket(self, t: Track) -> bool:
        """Was ``t``, when last seen, in a pocket's mouth or heading into it?"""
        if t.meas_mm is None:
            return True
        p = t.meas_mm
        d = np.linalg.norm(self._pockets - p, axis=1)
        k = int(np.argmin(d))
        if d[k] < 0.5 * self.config.pocket_mm:
            return True  # in the mouth already
        v = t.state[2:] if t.speed > 0.0 else np.zeros(2)
        if len(t.recent) >= 2:
            # over the last few frames: a ball all but stopped in the jaws
            # (creeping a millimetre or two) does not drop
            v = _recent_velocity(t)
        u = self._pockets[k] - p
        return float(v @ u) > self.config.drop_speed_mm * float(np.linalg.norm(u))

    def _seen(self, t: Track, dets: Detections, j: int, keep_meas: bool = False
              ) -> None:
        t.status = TrackStatus.SEEN
        t.missed = 0
        t.in_jaws = False
        t.stopped_unseen = False
        t.bare_frames = 0
        t.seen_at = self._frame
        if not keep_meas:
            t.meas_mm = dets.xy_mm[j].astype(np.float64).copy()
            t.xy_px = dets.xy_px[j].copy()
            t.radius_px = float(dets.radius_px[j])
        t.confidence = float(dets.probs[j, KINDS.index(t.kind)])

    def _near(self, z: np.ndarray, mm: float, skip: Track | None = None
              ) -> list[Track]:
        """The balls other than ``skip`` within ``mm`` of ``z`` (table mm)."""
        return [t for t in self.active() if t is not skip
                and float(np.linalg.norm(t.reported_mm - z)) < mm]

    def _seen_there(self, z: np.ndarray, skip: Track) -> bool:
        """Was a ball other than ``skip`` seen within ``clear_mm`` of ``z``
        (table mm) in the frame before? A sighting there is that ball, read
        as another kind, and no lost ball found again (seed 2412: the white,
        off the table in the break and held where it was lost, was taken 1 m
        away by the pink, rolling slowly, read 0.99 white for one frame while
        the pink's track took a stray disc 47 mm off; the white was never off
        the table)."""
        clear = self.config.clear_mm
        return any(t is not skip and float(np.linalg.norm(q - z)) < clear
                   for t, q in self._seen_last)

    def _clear(self, z: np.ndarray, skip: Track | None = None) -> bool:
        """No ball other than ``skip`` within ``clear_mm`` of ``z``."""
        return not self._near(z, self.config.clear_mm, skip)

    def _wedged(self, z: np.ndarray, skip: Track) -> bool:
        """Are two balls other than ``skip`` within ``wedge_mm`` of ``z``? No
        ball fits there: a disc between two balls that touch in the image
        (seed 1568, broadcast: one read 0.99 red between two reds of the
        pack, 44 and 47 mm from them, took the track of a red hidden by the
        player 440 mm away, and that red, seen again, was left untracked and
        struck first unseen)."""
        return len(self._near(z, self.config.wedge_mm, skip)) >= 2

    def _birth_prob(self, kind: BallKind, z: np.ndarray) -> float:
        """Least probability of ``kind`` for a detection at ``z`` (table mm) to
        start a track: lower for a colour on its own spot and for the cue ball
        in the D (in hand, it is placed there)."""
        c = self.config
        spot = self.spec.spots.get(kind)
        if spot is not None and np.hypot(*(z - spot)) <= c.spot_mm:
            return c.spot_birth_prob
        if kind == BallKind.WHITE and self._in_d(z):
            return c.spot_birth_prob
        return c.birth_prob

    def _colours_seen_elsewhere(self) -> list[tuple[int, np.ndarray]]:
        """``(kind index, (2,) mm)`` of the colours (one of each on the table)
        with a track seen in this frame or the last, or at rest and seen there
        the last time detection looked (where nothing moves, it looks at a
        ball at rest only now and then: seed 3412's blue, rattled out of the
        baulk-left jaws and rolling back along the near cushion at 38 mm a
        frame, blurred, read 0.53-0.63 green, was a green while the green at
        rest on its spot went unlooked at, and a ball of no kind there was
        for 15 frames: its stroke ended then, with the blue potted)."""
        return [(KINDS.index(t.kind), t.reported_mm) for t in self.active()
                if t.kind != BallKind.RED and (
                    t.seen_at >= self._frame - 1 or (
                        t.anchor is not None and t.status == TrackStatus.SEEN
                        and t.missed == 0))]

    def _sure_colours(self, dets: Detections, cand: np.ndarray
                      ) -> list[tuple[int, np.ndarray]]:
        """``(kind index, (2,) mm)`` of the detections ``cand`` read surely
        enough as a colour to start its track: on the first frame, before any
        track is seen, the colours on the table (seed 708's apex red, beside
        the pink, read 0.54 red and 0.45 pink, and a red read 0.17 brown got
        no track, and nothing made the table be searched again). A colour read
        surely twice is neither."""
        out = []
        for j in map(int, cand):
            k = int(np.argmax(dets.probs[j, :NONE_CLASS]))
            z = dets.xy_mm[j]
            if KINDS[k] != BallKind.RED and dets.probs[j, k] >= self._birth_prob(
                    KINDS[k], z):
                out.append((k, np.asarray(z, np.float64)))
        kinds = [k for k, _ in out]
        return [(k, z) for k, z in out if kinds.count(k) == 1]

    def _birth_kind(self, dets: Detections, j: int,
                    taken: list[tuple[int, np.ndarray]]) -> tuple[int, float]:
        """Detection ``j``'s most likely kind (index in ``KINDS``) and its
        probability, among the kinds it can be: not a colour seen at this
        moment elsewhere (beyond ``clear_mm``), of which there is one. Seed
        426's red at the apex of the pack, beside the pink, read 0.3 red and
        0.7 pink, and never got a track."""
        p = dets.probs[j].astype(np.float64)
        z = dets.xy_mm[j]
        whole = float(p.sum())
        for k, at in taken:
            if np.linalg.norm(at - z) > self.config.clear_mm:
                p[k] = 0.0
        k = int(np.argmax(p[:NONE_CLASS]))
        if float(p.sum()) < TAKEN_SHARE * whole:
            # all but surely a colour seen elsewhere: that one read twice (one
            # of the two a misread), not a ball of some other kind (seed 752's
            # white, read 0.98 white while its track had taken a red read
            # white beside it, was a 0.95 "pink" once white was struck out,
            # and moved the pink's track there)
            return k, 0.0
        return k, float(p[k] / max(float(p.sum()), 1e-9))

    def _start_tracks(self, dets: Detections, cand: np.ndarray,
                      regions_px: Sequence[tuple[int, int, int, int]] | None,
                      ) -> None:
        """Unmatched detections: candidates, then tracks once seen enough."""
        c = self.config
        first = self._updates == 1
        taken = self._colours_seen_elsewhere()
        if first:
            taken += self._sure_colours(dets, cand)
        kinds: dict[int, BallKind] = {}
        sure = []
        for j in map(int, cand):
            k, p = self._birth_kind(dets, j, taken)
            kinds[j] = KINDS[k]
            if (dets.ball_prob[j] >= c.min_ball_prob
                    and p >= self._birth_prob(kinds[j], dets.xy_mm[j])):
                sure.append(j)
        # follow the candidates
        cands: list[_Candidate] = []
        used: set[int] = set()
        for cd in sorted(self._cands, key=lambda x: -x.count):
            best, best_d = None, INF
            here, gate = self._candidate_gate(cd, self._frame)
            for j in sure:
                if j in used or kinds[j] != cd.kind:
                    continue
                d = float(np.linalg.norm(dets.xy_mm[j] - here))
                if d < min(best_d, gate):
                    best, best_d = j, d
            if best is not None:
                used.add(best)
                cd.xy = dets.xy_mm[best].astype(np.float64).copy()
                cd.count += 1
                cd.frame = self._frame
                cd.least_prob = min(cd.least_prob,
                                    float(dets.probs[best, KINDS.index(cd.kind)]))
                cands.append(cd)
            elif (regions_px is not None
                  and self._frame - cd.frame < self.config.candidate_frames):
                cands.append(cd)  # maybe not looked at this frame
        for j in sure:
            if j not in used:
                xy = dets.xy_mm[j].astype(np.float64)
                cands.append(_Candidate(kinds[j], xy.copy(), 1,
                                        self._frame, self._frame, xy.copy(),
                                        float(dets.probs[j, KINDS.index(kinds[j])])))
        self._cands = []
        counts = {k: 0 for k in KINDS}
        for t in self.active():
            counts[t.kind] += 1
        for cd in sorted(cands, key=lambda x: -x.count):
            j = self._det_at(dets, cd)
            if j is None:
                self._cands.append(cd)
                continue
            t = self._place(cd, counts, first)
            if t is None:
                self._cands.append(cd)
                continue
            self._seen(t, dets, j)

    def _candidate_gate(self, cd: _Candidate, frame: int
                        ) -> tuple[np.ndarray, float]:
        """Where candidate ``cd`` is expected in ``frame`` (table mm), and how
        far from there its next sighting may be: a ball first seen in motion
        (the cue ball in hand, struck before it was found) moves on between
        sightings."""
        c = self.config
        if cd.count == 1:
            return cd.xy, c.candidate_step_mm
        v = cd.velocity()
        here = cd.xy + v * (frame - cd.frame)
        return here, c.candidate_mm + 0.5 * float(np.linalg.norm(v))

    def pending(self) -> list[tuple[np.ndarray, float]]:
        """Candidates that may be a potted colour or cue ball back on the table
        (the cue ball in hand, put down where nothing else changes), first seen
        in the last ``candidate_frames``: where each is expected in the next
        frame (table mm) and how far from there it may be (mm). One seen once
        is looked for where it was (in motion, it changes the image, and is
        searched there anyway). (Not any candidate: the dark opening of a
        pocket makes discs read as red, which looked at again and again
        would become a track.)"""
        c = self.config
        nxt = self._frame + 1
        gone = {t.kind for t in self.tracks if t.status == TrackStatus.POTTED}
        return [self._candidate_gate(cd, nxt) if cd.count > 1
                else (cd.xy, c.candidate_mm) for cd in self._cands
                if cd.kind in gone and cd.kind != BallKind.RED
                and nxt - cd.first <= c.candidate_frames]

    def _det_at(self, dets: Detections, cd: _Candidate) -> int | None:
        """This frame's detection of a candidate (None: not seen this frame)."""
        if cd.frame != self._frame:
            return None
        d = np.linalg.norm(dets.xy_mm - cd.xy, axis=1)
        d = np.nan_to_num(d, nan=INF)
        j = int(np.argmin(d)) if len(d) else None
        return j if j is not None and d[j] < 1e-6 else None

    def _in_jaws(self, z: np.ndarray) -> bool:
        """Is a centre at ``z`` (table mm) beyond where a ball on the bed can be
        (by more than the measurement's slack): in a pocket's jaws?"""
        return not self.spec.on_bed((float(z[0]), float(z[1])),
                                    self.config.jaws_beyond_mm)

    def _place(self, cd: _Candidate, counts: dict[BallKind, int],
               first: bool) -> Track | None:
        """A track for a candidate seen enough, or None (not yet / no room)."""
        c = self.config
        z, kind = cd.xy, cd.kind
        if not first and self._doubtful_white(cd):
            return None
        t = self._revive_potted(cd) if kind != BallKind.RED else (
            self._red_back_out(cd))
        if t is not None:
            counts[kind] += 1
            return t
        if self._in_jaws(z):
            # a ball in front of a pocket's opening, with the dark hole, can
            # make a disc beyond the cushion line for as long as it passes
            # (seed 422: a phantom red, born there, was then found potted)
            if cd.count < c.jaws_birth_frames:
                return None
        elif not first and cd.count < c.birth_frames:
            return None
        if counts[kind] < (self.max_reds if kind == BallKind.RED else MAX_COUNT[kind]):
            if not self._clear(z):
                return None
            counts[kind] += 1
            t = self._new_track(kind, z)
            self._start_as_seen(t, cd)
            return t
        if cd.count < c.birth_frames + 2:
            return None
        # no free slot: a ball of this kind unseen for a while may have been
        # moved (by hand, or unseen in motion): it is here now
        # (not one seen since the candidate appeared: two balls at once; nor
        # an object ball at rest that no moving ball has come to touch since
        # it was last seen: only the cue ball is struck by the cue, and a hand
        # puts back only potted balls, which are not hidden but potted: seed
        # 2278's black, hidden at rest by a side cushion for 13 frames, was
        # taken to a disc read black by a middle pocket 1.3 m away, which then
        # vanished, and called potted)
        hidden = [t for t in self.active() if t.kind == kind
                  and t.status == TrackStatus.HIDDEN and t.seen_at < cd.first
                  and (t.anchor is None or (t.missed >= c.takeover_frames and (
                      kind == BallKind.WHITE or t.touched_at >= t.seen_at)))]
        if not hidden:
            return None
        t = min(hidden, key=lambda t: float(np.linalg.norm(t.xy_mm - z)))
        if (not self._clear(z, skip=t) or self._wedged(z, skip=t)
                or not self._placeable(t, z, self._seen_moving(cd))):
            return None
        self._rest_at(t, z)
        self._start_as_seen(t, cd)
        return t

    def _last_readings(self, t: Track) -> np.ndarray:
        """(K, 2) mm: the last ``settle_frames`` measurements of ``t`` (as
        many as it has), whose mean is where a settling ball rests."""
        return np.array(list(t.recent)[-self.config.settle_frames:])

    def _in_d(self, p: np.ndarray) -> bool:
        """Is a ball centred at ``p`` ((2,) table mm) in the D?"""
        return self.spec.in_d((float(p[0]), float(p[1])))

    def _seen_moving(self, cd: _Candidate) -> bool:
        """Was candidate ``cd`` seen moving (``moving_candidate_mm``)?"""
        return cd.speed() > self.config.moving_candidate_mm

    def _placeable(self, t: Track, z: np.ndarray, moving: bool) -> bool:
        """May ``t`` be back at ``z`` (table mm)? Not the cue ball in hand
        (``in_hand``) seen at rest outside the D: in hand, it is placed in the
        D (seed Part 3 rule 5), and struck from there; at rest elsewhere it
        is the cue's tip or the player's hand (seed 2571's, off the table
        over the top cushion, had its track taken 450 mm behind the D by the
        cue's tip against the hand, read 0.95-0.99 white, where the player
        stood to strike it, and its stroke began 6 frames early). Nor the cue
        ball lost going into a pocket's jaws (``Track.in_jaws``), beyond the
        way it can have come back out of them since (``_jaws_reach``):
        dropped, it is in hand (seed 3081's, in-off at a top corner and put
        down in the D, had its track taken behind the D by the player's
        hand, read 0.97-0.98 white, before the stroke that potted it was
        over; that stroke ended 55 frames late)."""
        if t.kind != BallKind.WHITE or moving:
            return True
        if t.in_jaws and t.meas_mm is not None and float(
                np.linalg.norm(z - t.meas_mm)) <= self._jaws_reach(t):
            return True
        return not (self.in_hand or t.in_jaws) or self._in_d(z)

    def _doubtful_white(self, cd: _Candidate) -> bool:
        """Is ``cd`` a white that may not be placed: at rest outside the D, and
        not surely white each time it was seen? The cue ball comes back in hand,
        put down in the D (seed Part 3 rule 5). Seed 591's potted white was
        revived at a gap in the pack, read white 0.6-0.8 in turn with red, sure
        only for want of any other kind it could be."""
        if cd.kind != BallKind.WHITE or cd.least_prob >= self.config.birth_prob:
            return False
        return not self._seen_moving(cd) and not self._in_d(cd.xy)

    def _start_as_seen(self, t: Track, cd: _Candidate) -> None:
        """Set ``t``, just placed at rest at candidate ``cd``, moving if the
        candidate was seen moving (a ball lost in a fast start, found rolling
        slowly on: held at rest, it would be lost again a few frames on)."""
        if self._seen_moving(cd):
            self._restart(t, cd.xy)
            t.state[2:] = cd.velocity()

    def _revive_potted(self, cd: _Candidate) -> Track | None:
        """A potted colour (or white) back on the table: its old track. On its
        spot at once; elsewhere (the cue ball in hand, or a ball taken for
        potted that was not, seen rolling on) once seen enough."""
        c = self.config
        kind, z = cd.kind, cd.xy
        spot = self.spec.spots.get(str(kind)) if kind != BallKind.WHITE else None
        on_spot = spot is not None and np.linalg.norm(np.asarray(spot) - z) < 30.0
        if not on_spot and cd.count < c.birth_frames:
            return None
        for t in self.tracks:
            if t.kind == kind and t.status == TrackStatus.POTTED:
                if not self._clear(z) or not self._placeable(
                        t, z, self._seen_moving(cd)):
                    return None
                self._rest_at(t, z)
                self._start_as_seen(t, cd)
                return t
        return None

    def _red_back_out(self, cd: _Candidate) -> Track | None:
        """A red lately taken for potted, back out of the jaws: its old track,
        for a candidate seen rolling away from where it vanished, that far at
        its speed in the time (seed 566's red rattled out of a baulk pocket's
        jaws and ran back along the near cushion, half hidden, read unsure
        until 250 mm on, where it was taken for a new red)."""
        c = self.config
        v, speed = cd.velocity(), cd.speed()
        if cd.count < c.birth_frames or not self._seen_moving(cd):
            return None
        for t in self.tracks:
            if (t.kind != BallKind.RED or not self._unpottable(t)
                    or t.meas_mm is None):
                continue
            off = cd.origin - t.meas_mm
            far = float(np.linalg.norm(off))
            reach = 2 * self.spec.ball_radius + 1.5 * speed * (cd.first - t.potted_at)
            # (or first seen within a ball's width of where it vanished,
            # whichever way it rolls: seed 3192's red, lost in the baulk-left
            # jaws, was first seen 28 mm deeper in them than its last reading,
            # coming back out, and got a track of its own, its own called
            # potted)
            if far <= reach and (float(off @ v) > 0
                                 or far <= 2 * self.spec.ball_radius) and (
                    self._clear(cd.xy)):
                self._rest_at(t, cd.xy)
                t.potted_at = -1
                self._start_as_seen(t, cd)
                return t
        return None


def _recent_velocity(t: Track) -> np.ndarray:
    """(2,) mm a frame: ``t``'s mean step over its last four measurements (or
    as many as it has, two at least)."""
    n = min(len(t.recent), 4)
    return (t.recent[-1] - t.recent[-n]) / (n - 1)


def _steps_away(off: np.ndarray, step_mm: float) -> bool:
    """Does each of the sightings ``off`` ((K, 2) mm from a ball's place, in
    successive frames) lie ``step_mm`` or more farther from it than the one
    before, each step within 45 degrees of the last?"""
    dist = np.linalg.norm(off, axis=1)
    if np.diff(dist).min() < step_mm:
        return False
    steps = np.diff(off, axis=0)
    n = np.linalg.norm(steps, axis=1)
    cos = np.sum(steps[1:] * steps[:-1], axis=1) / np.maximum(n[1:] * n[:-1], 1e-9)
    return bool(cos.min() >= 0.7)


def _fits_away(off: np.ndarray) -> bool:
    """Do the sightings ``off`` ((K, 2) mm from a ball's place, in successive
    frames) lie on a line leading away from it: a straight fit's speed
    ``CREEP_FIT_SPEED_MM`` or more, and ``CREEP_FIT_ERRORS`` of its standard
    errors or more (each axis's from the fit's residuals, ``CREEP_FIT_NOISE_MM``
    at least: a far ball is read several times as noisily in depth as
    across), and the fit's last point farther from the place than its first
    by half the way at least?"""
    k = len(off)
    t = np.arange(k) - (k - 1) / 2.0
    slope = _drift_velocity(off)
    fit = off.mean(axis=0) + np.outer(t, slope)
    noise = np.maximum(np.sqrt(((off - fit) ** 2).sum(axis=0) / (k - 2)),
                       CREEP_FIT_NOISE_MM)
    error = noise / np.sqrt(float(t @ t))
    speed = float(np.linalg.norm(slope))
    away = float(np.linalg.norm(fit[-1]) - np.linalg.norm(fit[0]))
    return bool(speed >= CREEP_FIT_SPEED_MM
                and float(np.hypot(*(slope / error))) >= CREEP_FIT_ERRORS
                and away >= 0.5 * (k - 1) * speed)


def _drift_velocity(pts: np.ndarray) -> np.ndarray:
    """(2,) mm a frame: velocity of the straight-line fit to successive
    measurements ``pts`` ((K, 2) float64, mm; two at least)."""
    k = np.arange(len(pts)) - (len(pts) - 1) / 2
    return k @ (pts - pts.mean(axis=0)) / (k @ k)


def _line_misfit(pts: np.ndarray) -> float:
    """Farthest (mm) any of successive measurements ``pts`` ((K, 2) float64,
    mm) lies from the straight-line fit to them (``_drift_velocity``)."""
    k = np.arange(len(pts)) - (len(pts) - 1) / 2
    fit = pts.mean(axis=0) + k[:, None] * _drift_velocity(pts)
    return float(np.linalg.norm(pts - fit, axis=1).max())


def _drift(pts: np.ndarray) -> float:
    """Speed (mm a frame) of the straight-line fit to successive measurements
    ``pts`` ((K, 2) float64, mm)."""
    return float(np.linalg.norm(_drift_velocity(pts)))


def _inside(p: np.ndarray, boxes: Sequence[tuple[int, int, int, int]],
            margin: float = 0.0) -> bool:
    """Is ``p`` (px) inside one of ``boxes`` by at least ``margin`` px?"""
    return any(x0 + margin <= p[0] < x1 - margin and y0 + margin <= p[1] < y1 - margin
               for x0, y0, x1, y1 in boxes)
