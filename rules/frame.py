"""The official rules of snooker as an immutable frame state with ``push``/``pop``.

Rule numbers cite the seed (``shared/seeds``: the IBSF/WPBSA Rules of Snooker);
"Part 3 rule 12b(iii)" is rule 12, clause b, item iii of Part 3 "The game".

The state knows nothing about pixels: it reads the match log's records. A shot is
judged from ``first_contact``, ``potted``, ``off_table``, ``nominated``,
``referee_fouls``, ``miss`` and, when present, ``positions`` (for snookers, free
balls, occupied spots, touching balls and misses).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, ClassVar

from calibration.table import OFFICIAL, TableSpec
from rules import geometry
from rules.balls import COLOURS, REDS, VALUES, value
from rules.errors import IllegalDecisionError, IllegalShotError
from rules.fouls import FROM_REFEREE, MIN_PENALTY, SEVEN, SEVEN_POINT_FOULS, Foul
from rules.records import (
    Choice,
    Claim,
    Concede,
    Decision,
    Forfeit,
    Positions,
    Record,
    Shot,
)

Point = tuple[float, float]


class Phase(StrEnum):
    """Which ball is on (seed Part 3 rules 3e, 3f)."""

    RED = "red"
    """Any red (or a free ball nominated as a red) is on."""
    COLOUR = "colour"
    """After a red: any colour, nominated by the striker (rule 3f(i))."""
    CLEARANCE = "clearance"
    """No reds left: the colours in ascending value (rule 3f(iii))."""


_B_CLASS = frozenset(
    {
        Foul.BALLS_NOT_AT_REST,
        Foul.BEFORE_RESPOT,
        Foul.BALL_NOT_ON_POTTED,
        Foul.WRONG_BALL_FIRST,
        Foul.PUSH_STROKE,
        Foul.TOUCHED_BALL,
        Foul.BALL_OFF_TABLE,
        Foul.WRONGLY_SPOTTED,
    }
)
"""Part 3 rule 12b: the higher of the ball on and the ball concerned."""


@dataclass(frozen=True)
class Respot:
    """A colour put back on the table after a stroke (seed Part 3 rule 7).

    Attributes:
        ball: The colour.
        position: Where it goes, table frame mm (its own spot when the positions of
            the other balls are unknown).
    """

    ball: str
    position: Point


@dataclass(frozen=True)
class ShotResult:
    """What one stroke earned: the referee's call.

    Attributes:
        player: Index of the striker.
        points: Points scored by the striker (0 on a foul, Part 3 rule 11e).
        penalty: Points awarded to the opponent (0 when no foul).
        fouls: Every foul committed; the penalty is the highest (rule 11g).
        miss: A foul and a miss was called (rule 14).
        ball_on: The ball(s) on for the stroke.
        nominated: The nominated ball (explicit, or the first colour struck).
        free_ball: The stroke was played with a free ball (rule 10).
        potted: Balls potted.
        respotted: Colours re-spotted before the next stroke, with where.
        free_ball_awarded: The next player is snookered after this foul (rule 10).
        turn_over: The striker's visit ended with this stroke.
        frame_over: The frame ended with this stroke.
        replayed: Balls replaced and the stroke replayed (rule 9b).
        line: The match-log line, when read from a log.
    """

    player: int
    points: int
    penalty: int
    fouls: tuple[Foul, ...]
    miss: bool
    ball_on: tuple[str, ...]
    nominated: str | None
    free_ball: bool
    potted: tuple[str, ...]
    respotted: tuple[Respot, ...]
    free_ball_awarded: bool
    turn_over: bool
    frame_over: bool
    replayed: bool = False
    line: int | None = field(default=None, compare=False)

    @property
    def foul(self) -> bool:
        """True if the stroke was a foul."""
        return bool(self.fouls)

    def to_json(self) -> dict[str, Any]:
        """The contract's ``shots`` entry, plus the referee's details."""
        return {
            "player": self.player,
            "points": self.points,
            "penalty": self.penalty,
            "fouls": [str(f) for f in self.fouls],
            "miss": self.miss,
            "ball_on": list(self.ball_on),
            "nominated": self.nominated,
            "free_ball": self.free_ball,
            "potted": list(self.potted),
            "respotted": [
                {"ball": r.ball, "position": [round(c, 1) for c in r.position]}
                for r in self.respotted
            ],
            "free_ball_awarded": self.free_ball_awarded,
            "frame_over": self.frame_over,
            "replayed": self.replayed,
            "line": self.line,
        }


@dataclass(frozen=True)
class PendingFoul:
    """A foul whose consequences wait for the next player's decision.

    Attributes:
        offender: Who committed the foul.
        can_restore: ``restore`` is open: a foul and a miss (rule 14a), or a
            variant's own case (an illegal break-off in American snooker).
        free_ball: The cue ball is snookered for the next player (rule 10):
            ``True``/``False``, or ``None`` when positions were not logged.
        before: The state before the foul stroke, for ``restore``.
    """

    offender: int
    can_restore: bool
    free_ball: bool | None
    before: FrameState | None


@dataclass(frozen=True)
class FrameState:
    """One frame of snooker: an immutable state; ``push`` returns the next one.

    Two players, or four in two sides (seed Part 3 rule 17): players 0 and 2 are one
    side, 1 and 3 the other; play goes round in the order of ``players``. Scores,
    the winner and frames won count per side; with two players a side is a player.

    Subclasses are the variants: they override the class attributes and the hooks
    ``_penalty``, ``_variant_fouls`` and ``_object_ball_off_table_is_foul``.

    Attributes:
        table: The table, for spots, the D and sight lines.
        players: Player names, in order of play.
        breaker: Who broke off.
        scores: Points per side.
        to_play: Index of the striker.
        reds: Reds on the table.
        colours: Colours on the table, in ascending value.
        phase: Which ball is on.
        in_hand: The cue ball is in hand, to be played from the D (rule 5).
        free_ball: The striker has a free ball (rule 10): ``None`` when it cannot be
            known (no positions), then a nominated ball not on is taken as one.
        pending: A foul awaiting the next player's decision.
        respotted_black: The black was re-spotted after a tie (rule 4b).
        awaiting_toss: Nobody has played since the black was re-spotted; the next
            shot's ``player`` says who won the toss.
        frame_over: The frame has ended.
        winner: Index of the side that won the frame, once it is over.
        conceded: The frame ended on a concession.
        current_break: Points of the striker's current visit.
        highest_break: Highest break per player in this frame.
        positions: Where the balls are (table frame, mm), when known.
        miss_streak: Consecutive misses from the same position with a clear path
            (rule 14c).
        restored: The position was just restored after a miss.
        break_off: The next stroke is the break-off (no stroke yet, or re-racked).
        aggregate_before: Points per side in the match's earlier frames, when the
            total of points decides the match (rule 4a(ii)); ``None`` otherwise.
        final_frame: The last frame of an aggregate-points match (rule 4c).
        shots: Every stroke's result, in order.
    """

    variant: ClassVar[str] = "wpbsa"
    """The variant's name in the match log."""
    default_table: ClassVar[TableSpec] = OFFICIAL
    """The table the variant is played on (seed Part 1 rule 1)."""
    free_ball_rule: ClassVar[bool] = True
    """A snooker after a foul gives a free ball (Part 3 rule 10)."""
    miss_rule: ClassVar[bool] = True
    """A foul and a miss can be called and the position restored (rule 14)."""
    three_misses_lose: ClassVar[bool] = True
    """A third failure from a clear position loses the frame (rule 14c)."""
    seven_point_fouls: ClassVar[frozenset[Foul]] = SEVEN_POINT_FOULS
    """Fouls that cost seven points (rule 12d)."""
    decisions: ClassVar[frozenset[Choice]] = frozenset(
        {Choice.PLAY, Choice.PLAY_AGAIN, Choice.RESTORE}
    )
    """What the next player may choose after a foul."""
    player_counts: ClassVar[tuple[int, ...]] = (2, 4)
    """Two players, or four in two sides (Part 3 rules 1, 17)."""

    table: TableSpec
    players: tuple[str, ...]
    breaker: int
    scores: tuple[int, ...]
    to_play: int
    reds: int
    colours: tuple[str, ...]
    phase: Phase = Phase.RED
    in_hand: bool = True
    free_ball: bool | None = False
    pending: PendingFoul | None = None
    respotted_black: bool = False
    awaiting_toss: bool = False
    frame_over: bool = False
    winner: int | None = None
    conceded: bool = False
    current_break: int = 0
    highest_break: tuple[int, ...] = ()
    positions: Positions | None = None
    miss_streak: int = 0
    restored: bool = False
    break_off: bool = True
    aggregate_before: tuple[int, ...] | None = None
    final_frame: bool = False
    shots: tuple[ShotResult, ...] = ()
    parent: FrameState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def new(
        cls,
        players: tuple[str, ...] = ("Player 1", "Player 2"),
        breaker: int = 0,
        reds: int = REDS,
        table: TableSpec | None = None,
        aggregate_before: tuple[int, ...] | None = None,
        final_frame: bool = False,
    ) -> FrameState:
        """A frame racked as in seed Part 3 rule 2, the breaker in hand."""
        if len(players) not in cls.player_counts:
            counts = " or ".join(str(n) for n in cls.player_counts)
            raise IllegalShotError(
                f"{cls.variant} is played by {counts} players, got {len(players)}",
                "players",
            )
        return cls(
            table=table or cls.default_table,
            players=tuple(players),
            breaker=breaker,
            scores=(0, 0),
            to_play=breaker,
            reds=reds,
            colours=COLOURS,
            highest_break=(0,) * len(players),
            aggregate_before=aggregate_before,
            final_frame=final_frame,
        )

    # --- what the overlay shows ---------------------------------------------------

    @property
    def ball_on(self) -> tuple[str, ...]:
        """The ball(s) on for the striker (Part 2 rule 11)."""
        if self.frame_over:
            return ()
        if self.phase is Phase.RED:
            return ("red",)
        if self.phase is Phase.COLOUR:
            return self.colours
        return self.colours[:1]

    @property
    def opponent(self) -> int:
        """The player after the striker."""
        return (self.to_play + 1) % len(self.players)

    def side(self, player: int) -> int:
        """The side a player plays for (Part 3 rule 17: partners alternate)."""
        return player % len(self.scores)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Player indices of each side."""
        n = len(self.scores)
        return tuple(tuple(range(s, len(self.players), n)) for s in range(n))

    @property
    def points_remaining(self) -> int:
        """Most points the table still holds for the striker."""
        if self.frame_over:
            return 0
        colours = sum(VALUES[c] for c in self.colours)
        if self.phase is Phase.CLEARANCE:
            extra = VALUES[self.colours[0]] if self.free_ball else 0
            return colours + extra
        total = self.reds * 8 + colours
        if self.phase is Phase.COLOUR:
            total += VALUES["black"]
        elif self.free_ball:
            total += 1 + VALUES["black"]
        return total

    @property
    def snookers_required(self) -> tuple[int, ...]:
        """Per player: snookers needed to win on the table, 0 when none are."""
        remaining = self.points_remaining
        if self.frame_over:
            return (0,) * len(self.scores)
        on_values = [VALUES[b] for b in self.ball_on] or [MIN_PENALTY]
        per_snooker = max(MIN_PENALTY, min(on_values))
        out = []
        for i, score in enumerate(self.scores):
            lead = max(s for j, s in enumerate(self.scores) if j != i)
            short = lead - score - remaining
            out.append(math.ceil(short / per_snooker) if short > 0 else 0)
        return tuple(out)

    @property
    def last(self) -> ShotResult | None:
        """The last stroke's result."""
        return self.shots[-1] if self.shots else None

    def summary(self) -> dict[str, Any]:
        """The frame's part of ``baulk score --json`` (see the contracts)."""
        on_table = {"red": self.reds}
        on_table.update({c: int(c in self.colours) for c in COLOURS})
        awarded = bool(self.pending and self.pending.free_ball)
        return {
            "scores": list(self.scores),
            "to_play": self.to_play,
            "ball_on": list(self.ball_on),
            "free_ball": not self.frame_over and (bool(self.free_ball) or awarded),
            "frame_over": self.frame_over,
            "winner": self.winner,
            "current_break": self.current_break,
            "respotted_black": self.respotted_black,
            "on_table": on_table,
            "breaker": self.breaker,
            "in_hand": self.in_hand,
            "awaiting_decision": self.pending is not None,
            "free_ball_awarded": awarded,
            "conceded": self.conceded,
            "points_remaining": self.points_remaining,
            "snookers_required": list(self.snookers_required),
            "phase": str(self.phase),
        }

    @property
    def breaks(self) -> tuple[int, ...]:
        """Highest break per player, the break in progress included."""
        highest = list(self.highest_break)
        if not self.frame_over:
            highest[self.to_play] = max(highest[self.to_play], self.current_break)
        return tuple(highest)

    # --- push / pop -----------------------------------------------------------------

    def pop(self) -> FrameState:
        """The state before the last ``push``.

        Raises:
            IndexError: nothing has been pushed.
        """
        if self.parent is None:
            raise IndexError("pop from a frame with no records pushed")
        return self.parent

    def push(self, record: Record) -> FrameState:
        """The state after ``record``; this state is unchanged.

        Raises:
            IllegalShotError: the record cannot have happened from this state.
            IllegalDecisionError: a decision that is not open.
        """
        if isinstance(record, Shot):
            new = self._push_shot(record)
        elif isinstance(record, Decision):
            new = self._push_decision(record)
        elif isinstance(record, Concede):
            new = self._push_concede()
        elif isinstance(record, Claim):
            new = self._push_claim()
        elif isinstance(record, Forfeit):
            new = self._push_forfeit(record.player)
        else:
            raise IllegalShotError(
                f"a {type(record).__name__} record cannot be pushed into a frame",
                "type",
            )
        return replace(new, parent=self)

    # --- decisions and concessions ------------------------------------------------

    def _push_decision(self, decision: Decision) -> FrameState:
        """The next player's choice after a foul (Part 3 rules 10f, 11h, 13, 14a)."""
        if self.frame_over:
            raise IllegalDecisionError("the frame is over", "type")
        if self.pending is None:
            raise IllegalDecisionError("no foul before this decision", "choice")
        return self._decide(decision.choice)

    def _decide(self, choice: Choice) -> FrameState:
        pending = self.pending
        assert pending is not None
        if choice not in self.decisions:
            raise IllegalDecisionError(
                f"{choice} is not a choice in {self.variant}", "choice"
            )
        if choice is Choice.PLAY_FROM_HAND:
            return replace(self, pending=None, free_ball=False, in_hand=True)
        if choice is Choice.PLAY:
            # Rule 10: the free ball is the next player's when he plays himself.
            return replace(self, pending=None, free_ball=pending.free_ball)
        if choice is Choice.PLAY_AGAIN:
            # Rules 11h(ii), 13: the offender plays again; rule 10f: no free ball.
            return replace(
                self, pending=None, free_ball=False, to_play=pending.offender
            )
        # Rule 14a: after a foul and a miss, the balls are replaced and the offender
        # plays again from the original position, with the same ball on.
        if not pending.can_restore or pending.before is None:
            raise IllegalDecisionError(
                "restore is only open after a foul and a miss", "choice"
            )
        before = pending.before
        return replace(
            before,
            scores=self.scores,
            to_play=pending.offender,
            current_break=0,
            highest_break=self.highest_break,
            pending=None,
            free_ball=False,
            miss_streak=self.miss_streak,
            restored=True,
            shots=self.shots,
            awaiting_toss=False,
        )

    def _push_concede(self) -> FrameState:
        """Part 4 rule 6a: the striker concedes; the frame goes to the opponent.

        Rule 6b: when aggregate points count, the balls left are added to the
        opponent's score, each red counting eight.
        """
        if self.frame_over:
            raise IllegalShotError("the frame is over", "type")
        state = self._decide(Choice.PLAY) if self.pending else self
        winner = state.side(state.opponent)
        if state.aggregate_before is not None:
            scores = list(state.scores)
            scores[winner] += state.value_left
            state = replace(state, scores=tuple(scores))
        return state._end(winner=winner, conceded=True)

    def _push_claim(self) -> FrameState:
        """Part 2 rule 1b: with only the black left, a striker more than seven
        points ahead may end the frame."""
        if self.frame_over:
            raise IllegalShotError("the frame is over", "type")
        state = self._decide(Choice.PLAY) if self.pending else self
        mine, theirs = state.side(state.to_play), state.side(state.opponent)
        lead = state.scores[mine] - state.scores[theirs]
        if state.reds or state.colours != ("black",) or lead <= 7:
            raise IllegalShotError(
                "a frame can be claimed only with the black alone left and a lead "
                f"of more than 7 (lead {lead})",
                "type",
            )
        return state._end(winner=mine)

    def _push_forfeit(self, offender: int) -> FrameState:
        """Part 4 rule 3a: the offender loses the frame and all his points; the
        opponent receives the value of the balls left, eight for each red and every
        colour counted as on the table."""
        if self.frame_over:
            raise IllegalShotError("the frame is over", "type")
        if not 0 <= offender < len(self.players):
            raise IllegalShotError(f"no player {offender}", "player")
        state = replace(self, pending=None)
        loser = self.side(offender)
        winner = (loser + 1) % len(self.scores)
        scores = list(state.scores)
        scores[loser] = 0
        scores[winner] += state.value_left
        return replace(state, scores=tuple(scores))._end(winner=winner)

    @property
    def value_left(self) -> int:
        """The balls left, each red eight (Part 4 rules 3a, 6b)."""
        return self.reds * 8 + sum(VALUES[c] for c in self.colours)

    def _end(self, winner: int | None, conceded: bool = False) -> FrameState:
        best = max(self.highest_break[self.to_play], self.current_break)
        highest = list(self.highest_break)
        highest[self.to_play] = best
        return replace(
            self,
            frame_over=True,
            winner=winner,
            conceded=conceded,
            pending=None,
            free_ball=False,
            current_break=0,
            highest_break=tuple(highest),
        )

    # --- shots ---------------------------------------------------------------------

    def _push_shot(self, shot: Shot) -> FrameState:
        if self.frame_over:
            raise IllegalShotError("the frame is over: no more shots", "type")
        state = self._decide(Choice.PLAY) if self.pending else self
        if shot.player is not None and shot.player != state.to_play:
            if not state.awaiting_toss:
                raise IllegalShotError(
                    f"player {shot.player} is not to play (player {state.to_play} is)",
                    "player",
                )
            if not 0 <= shot.player < len(state.players):
                raise IllegalShotError(f"no player {shot.player}", "player")
            state = replace(state, to_play=shot.player)
        state._check_balls(shot)
        return state._judge(shot)

    def _on_table(self, name: str) -> int:
        if name == "red":
            return self.reds
        if name == "white":
            return 1
        return int(name in self.colours)

    def _check_balls(self, shot: Shot) -> None:
        """Every ball the shot names must be on the table."""
        for name in shot.first_contact:
            if not self._on_table(name):
                raise IllegalShotError(f"{name} is not on the table", "first_contact")
        if shot.nominated is not None and not self._on_table(shot.nominated):
            raise IllegalShotError(f"{shot.nominated} is not on the table", "nominated")
        gone = shot.potted_balls + list(shot.off_table)
        for name in set(gone):
            if gone.count(name) > self._on_table(name):
                where = "potted" if name in shot.potted_balls else "off_table"
                raise IllegalShotError(
                    f"{name} potted or off the table but not on the table", where
                )
        for key, names in (
            ("touching", shot.touching),
            ("fell_unaided", shot.fell_unaided),
        ):
            for name in names:
                if not self._on_table(name):
                    raise IllegalShotError(f"{name} is not on the table", key)
        if self.phase is Phase.COLOUR and shot.nominated == "red":
            raise IllegalShotError(
                "a colour is on after a red: nominate a colour", "nominated"
            )

    def _touching(self, shot: Shot) -> set[str]:
        """Balls the cue ball rests against before the stroke (rule 8a)."""
        names = set(shot.touching)
        pos = self.positions
        if pos is not None and not self.in_hand and pos.white is not None:
            others = [(n, p) for n, p in pos.balls if n != "white"]
            names.update(
                geometry.touching(pos.white, others, self.table.ball_diameter_mm)
            )
        return names

    def _judge(self, shot: Shot) -> FrameState:
        """Referee one stroke (Part 3 rules 3, 6, 8, 9, 10, 11, 12, 14)."""
        phase = self.phase
        first = list(shot.first_contact)
        potted = shot.stroke_pots
        nominated = shot.nominated

        # Free ball (rule 10): a nominated ball that is not on, or, unnominated, the
        # one ball struck first when it is not on.
        on_names = {"red"} if phase is Phase.RED else set(self.ball_on)
        free_ball: str | None = None
        if (
            self.free_ball_rule
            and phase is not Phase.COLOUR
            and self.free_ball is not False
        ):
            if nominated is not None and nominated not in on_names:
                free_ball = nominated
            elif self.free_ball and nominated is None:
                # Unnominated, the one ball not on that was struck first (alone or
                # with the ball on) is the free ball, where that is unambiguous.
                others = [b for b in first if b not in on_names]
                if len(others) == 1 and len(set(first)) == len(first):
                    free_ball = others[0]

        # The nominated colour after a red (rule 3f(i)); the first colour struck
        # counts as nominated where that is unambiguous (contract).
        if phase is Phase.COLOUR and nominated is None:
            if len(first) == 1 and first[0] != "red":
                nominated = first[0]
            else:
                touching_colours = [
                    b for b in self._touching(shot) if b in self.colours
                ]
                if not first and len(touching_colours) == 1:
                    nominated = touching_colours[0]  # rule 8c(ii)

        if phase is Phase.RED:
            targets = {"red"}
            on_value: int | None = 1
        elif phase is Phase.COLOUR:
            targets = {nominated} if nominated else set()
            on_value = VALUES[nominated] if nominated else None
        else:
            targets = {self.colours[0]}
            on_value = VALUES[self.colours[0]]
        ball_on = self.ball_on
        if free_ball:
            targets_with_free = targets | {free_ball}
        else:
            targets_with_free = targets

        def concerned(*balls: str) -> int:
            return max([on_value or 0, *(value(b) for b in balls)])

        fouls: list[tuple[Foul, int]] = []

        # Touching ball (rule 8): playing away from a ball on counts as striking it;
        # moving it is a push stroke (rule 8b).
        touching = self._touching(shot)
        for name in touching:
            if name != "red" and name in first:
                fouls.append((Foul.PUSH_STROKE, concerned(name)))
        if not first:
            touching_on = [b for b in touching if b in targets_with_free]
            if touching_on:
                first = [touching_on[0]]

        # First contact (rules 6, 10b(i), 12a(v), 12b(iv), 12c, 12d(iii)).
        if not first:
            fouls.append((Foul.NO_BALL_STRUCK, on_value or 0))
        elif len(first) == 1:
            ball = first[0]
            if ball not in targets_with_free:
                if phase is Phase.COLOUR and ball == "red":
                    fouls.append((Foul.RED_AFTER_RED, SEVEN))
                else:
                    fouls.append((Foul.WRONG_BALL_FIRST, concerned(ball)))
            elif free_ball and nominated == free_ball and ball != free_ball:
                # Rule 10b(i): a nominated free ball must be struck first.
                fouls.append((Foul.WRONG_BALL_FIRST, concerned(ball)))
        else:
            a, b = first
            if a == b == "red" and phase is Phase.RED:
                pass  # rule 6: two reds at once
            elif free_ball and {a, b} == {free_ball, *targets} and len(targets) == 1:
                pass  # rule 6: the free ball and the ball on at once
            elif phase is Phase.COLOUR and a == b == "red":
                fouls.append((Foul.RED_AFTER_RED, SEVEN))
            elif a in targets_with_free or b in targets_with_free:
                fouls.append((Foul.TWO_BALLS_AT_ONCE, concerned(a, b)))
            else:
                fouls.append((Foul.WRONG_BALL_FIRST, concerned(a, b)))

        # Balls potted (rules 3f, 10, 12a(vi), 12b(iii)).
        pottable = set(targets_with_free)
        for ball in potted:
            if ball == "white":
                fouls.append((Foul.CUE_BALL_POTTED, on_value or 0))
            elif ball not in pottable:
                fouls.append((Foul.BALL_NOT_ON_POTTED, concerned(ball)))
        # Balls forced off the table (rule 12b(vii)).
        for ball in shot.off_table:
            if ball == "white" or self._object_ball_off_table_is_foul(ball):
                fouls.append((Foul.BALL_OFF_TABLE, concerned(ball)))
        # Fouls only the referee sees.
        for called, ball in shot.referee_fouls:
            foul = FROM_REFEREE[called]
            if foul in self.seven_point_fouls:
                fouls.append((foul, SEVEN))
            elif foul in _B_CLASS:
                concerned_balls = (
                    [ball] if ball else (first if foul is Foul.PUSH_STROKE else [])
                )
                fouls.append((foul, concerned(*concerned_balls)))
            else:
                fouls.append((foul, on_value or 0))
        fouls.extend(self._variant_fouls(shot, first, potted))
        # Rule 12d(vi): a foul after a red before a colour is nominated.
        if fouls and phase is Phase.COLOUR and nominated is None:
            fouls.append((Foul.FOUL_BEFORE_NOMINATING, SEVEN))

        legal_points = 0 if fouls else self._points(potted, free_ball)
        # Rule 10b(ii), 12a(vii): leaving the opponent snookered by the free ball.
        if (
            not fouls
            and free_ball
            and legal_points == 0
            and free_ball not in potted
            and self._snookered_by_free_ball(shot, free_ball)
        ):
            fouls.append((Foul.SNOOKERED_WITH_FREE_BALL, on_value or 0))

        ruled = _Ruling(
            fouls=tuple(dict.fromkeys(f for f, _ in fouls)),
            penalty=self._penalty(fouls) if fouls else 0,
            points=legal_points,
            nominated=nominated,
            free_ball=free_ball,
            ball_on=ball_on,
        )
        if shot.replay:
            return self._replay(shot, ruled)
        return self._after_stroke(shot, ruled)

    # --- the variants' hooks ---------------------------------------------------------

    def _penalty(self, fouls: list[tuple[Foul, int]]) -> int:
        """Rules 11g, 12: the highest penalty of the stroke's fouls, at least four."""
        return max([MIN_PENALTY, *(v for _, v in fouls)])

    def _variant_fouls(
        self, shot: Shot, first: list[str], potted: list[str]
    ) -> list[tuple[Foul, int]]:
        """Fouls a variant adds to the official ones (none in the official game)."""
        return []

    def _restore_open(self, before: FrameState) -> bool:
        """A variant's own case for ``restore`` after a foul without a miss."""
        return False

    def _object_ball_off_table_is_foul(self, ball: str) -> bool:
        """Rule 12b(vii): forcing an object ball off the table is a foul."""
        return True

    def _points(self, potted: list[str], free_ball: str | None) -> int:
        """Points of a stroke without a foul (rules 3e, 3f, 10c-e)."""
        if self.phase is Phase.RED:
            # Rule 10e: with a red on, every red and the free ball count one each.
            return potted.count("red") + (1 if free_ball in potted else 0)
        if self.phase is Phase.COLOUR:
            colours = [b for b in potted if b != "white"]
            return VALUES[colours[0]] if colours else 0
        on = self.colours[0]
        # Rules 10c, 10e: the free ball scores the ball on's value; both potted,
        # only the ball on counts.
        if on in potted or (free_ball and free_ball in potted):
            return VALUES[on]
        return 0

    def _snookered_by_free_ball(self, shot: Shot, free_ball: str) -> bool:
        """Rule 10b(ii): the next ball on effectively snookered by the free ball."""
        pos = shot.positions
        if pos is None or pos.white is None:
            return False
        reds_left = (
            self.reds - shot.stroke_pots.count("red") - shot.off_table.count("red")
        )
        if reds_left == 0 and set(self.colours) <= {"pink", "black"}:
            return False  # except when only pink and black remain
        on = "red" if reds_left else self.colours[0]
        targets = pos.of(on)
        not_on = [(n, p) for n, p in pos.balls if n not in ("white", on)]
        check = geometry.snooker_check(
            pos.white, targets, not_on, self.table.ball_diameter_mm
        )
        return check.snookered and free_ball in check.effective

    # --- consequences --------------------------------------------------------------

    def _respots(
        self, colours: list[str], positions: Positions | None
    ) -> tuple[tuple[Respot, ...], Positions | None]:
        """Re-spot colours, the highest value first (rule 7e)."""
        respots = []
        for colour in sorted(colours, key=VALUES.__getitem__, reverse=True):
            if positions is None:
                where = self.table.spots[colour]
            else:
                balls = [p for _, p in positions.balls]
                where = geometry.spot_position(self.table, colour, balls)
                positions = positions.with_ball(colour, where)
            respots.append(Respot(colour, where))
        return tuple(respots), positions

    def _replay(self, shot: Shot, ruled: _Ruling) -> FrameState:
        """Rule 9b: a ball on a pocket's edge fell and could have been involved.

        All balls are replaced; without a foul the striker plays again, with one
        the penalty stands and the next player has the usual choice.
        """
        result = ShotResult(
            player=self.to_play,
            points=0,
            penalty=ruled.penalty,
            fouls=ruled.fouls,
            miss=False,
            ball_on=ruled.ball_on,
            nominated=ruled.nominated,
            free_ball=bool(ruled.free_ball),
            potted=tuple(shot.potted_balls),
            respotted=(),
            free_ball_awarded=False,
            turn_over=bool(ruled.fouls),
            frame_over=False,
            replayed=True,
            line=shot.line,
        )
        if not ruled.fouls:
            return replace(self, shots=(*self.shots, result))
        scores = list(self.scores)
        scores[self.side(self.opponent)] += ruled.penalty
        return replace(
            self._visit_over(),
            scores=tuple(scores),
            to_play=self.opponent,
            phase=Phase.RED if self.reds else Phase.CLEARANCE,
            pending=PendingFoul(self.to_play, False, False, None),
            break_off=False,
            free_ball=False,
            restored=False,
            miss_streak=0,
            shots=(*self.shots, result),
        )

    def _visit_over(self) -> FrameState:
        """The striker's visit ends: the break is banked."""
        highest = list(self.highest_break)
        highest[self.to_play] = max(highest[self.to_play], self.current_break)
        return replace(self, current_break=0, highest_break=tuple(highest))

    def _after_stroke(self, shot: Shot, ruled: _Ruling) -> FrameState:
        striker = self.to_play
        potted = shot.stroke_pots
        gone = potted + list(shot.off_table)
        reds = self.reds - gone.count("red")
        cue_gone = "white" in gone
        only_black = self.reds == 0 and self.colours == ("black",)

        # Which colours leave the table for good (rule 3f(iii)), which come back
        # (rule 7).
        stays_off: set[str] = set()
        if not ruled.fouls and self.phase is Phase.CLEARANCE:
            if self.colours[0] in potted:
                stays_off.add(self.colours[0])
        respot_colours = [b for b in gone if b in COLOURS and b not in stays_off]
        colours = tuple(c for c in self.colours if c not in stays_off)

        positions = shot.positions
        if positions is not None:
            positions = Positions(
                tuple(
                    (n, p) for n, p in positions.balls if n != "white" or not cue_gone
                )
            )
            # Positions list the balls left on the table; drop any potted ball a
            # log lists there too.
            for ball in set(gone) - {"white"}:
                left = reds if ball == "red" else 0
                excess = len(positions.of(ball)) - left
                if excess > 0:
                    positions = positions.without(ball, excess)
        respots, positions = self._respots(respot_colours, positions)

        scores = list(self.scores)
        foul = bool(ruled.fouls)
        if foul:
            scores[self.side(self.opponent)] += ruled.penalty
        else:
            scores[self.side(striker)] += ruled.points
        result_kwargs = dict(
            player=striker,
            points=ruled.points,
            penalty=ruled.penalty,
            fouls=ruled.fouls,
            miss=shot.miss and foul,
            ball_on=ruled.ball_on,
            nominated=ruled.nominated,
            free_ball=bool(ruled.free_ball),
            potted=tuple(shot.potted_balls),
            respotted=respots,
            line=shot.line,
        )
        state = replace(
            self,
            scores=tuple(scores),
            reds=reds,
            colours=colours,
            positions=positions,
            in_hand=cue_gone,
            awaiting_toss=False,
            restored=False,
            break_off=False,
        )

        # End of frame (rule 4): with only the black left, a score or a foul ends it.
        black_gone = only_black and not foul and "black" in potted
        if only_black and (foul or black_gone):
            return state._frame_end(striker, foul, respots, result_kwargs)

        if foul:
            return state._after_foul(shot, result_kwargs, self)

        # A scoring stroke continues the visit (rule 3f); otherwise it ends (3h).
        if ruled.points > 0:
            if self.phase is Phase.RED:
                phase = Phase.COLOUR
            elif self.phase is Phase.COLOUR:
                phase = Phase.RED if reds else Phase.CLEARANCE
            else:
                phase = Phase.CLEARANCE
            current = self.current_break + ruled.points
            highest = list(self.highest_break)
            highest[striker] = max(highest[striker], current)
            result = ShotResult(
                **result_kwargs,
                free_ball_awarded=False,
                turn_over=False,
                frame_over=False,
            )
            return replace(
                state,
                phase=phase,
                free_ball=False,
                current_break=current,
                highest_break=tuple(highest),
                miss_streak=0,
                shots=(*self.shots, result),
            )
        result = ShotResult(
            **result_kwargs, free_ball_awarded=False, turn_over=True, frame_over=False
        )
        return replace(
            state._visit_over(),
            to_play=self.opponent,
            phase=Phase.RED if reds else Phase.CLEARANCE,
            free_ball=False,
            miss_streak=0,
            shots=(*self.shots, result),
        )

    def _after_foul(
        self, shot: Shot, result_kwargs: dict[str, Any], before: FrameState
    ) -> FrameState:
        """Rule 11: penalty to the opponent, who chooses who plays next."""
        offender = self.to_play
        opponent = self.opponent
        phase = Phase.RED if self.reds else Phase.CLEARANCE
        awarded = self._free_ball_after_foul(phase) if self.free_ball_rule else False
        miss = bool(result_kwargs["miss"]) and self.miss_rule
        result_kwargs = {**result_kwargs, "miss": miss}
        streak = 0
        if miss and self.three_misses_lose:
            # Rule 14c: misses from a position with a clear path to a ball on; the
            # third such failure in a row loses the frame.
            clear = before._clear_path()
            streak = (before.miss_streak + 1 if before.restored else 1) if clear else 0
        state = replace(
            self._visit_over(),
            to_play=opponent,
            phase=phase,
            free_ball=False,
            miss_streak=streak,
        )
        if streak >= 3:
            result = ShotResult(
                **result_kwargs,
                free_ball_awarded=False,
                turn_over=True,
                frame_over=True,
            )
            return replace(state, to_play=offender, shots=(*self.shots, result))._end(
                winner=self.side(opponent)
            )
        result = ShotResult(
            **result_kwargs,
            free_ball_awarded=bool(awarded),
            turn_over=True,
            frame_over=False,
        )
        before_stroke = replace(before, parent=None, pending=None)
        return replace(
            state,
            pending=PendingFoul(
                offender, miss or self._restore_open(before), awarded, before_stroke
            ),
            shots=(*self.shots, result),
        )

    def _clear_path(self) -> bool:
        """Rule 14c: a clear straight path to hit a ball on full, from this position.

        Unknown positions count as a clear path: the referee called the miss.
        """
        pos = self.positions
        if pos is None:
            return True
        on = set(self.ball_on)
        targets = [p for n, p in pos.balls if n in on]
        not_on = [(n, p) for n, p in pos.balls if n != "white" and n not in on]
        diameter = self.table.ball_diameter_mm
        if self.in_hand or pos.white is None:
            return any(
                geometry.clear_full_ball_path(spot, targets, not_on, diameter)
                for spot in self.table.d_points(20.0)
            )
        return geometry.clear_full_ball_path(pos.white, targets, not_on, diameter)

    def _free_ball_after_foul(self, phase: Phase) -> bool | None:
        """Rule 10: is the next player snookered? ``None`` without positions."""
        pos = self.positions
        if pos is None:
            return None
        on = "red" if phase is Phase.RED else self.colours[0]
        targets = pos.of(on)
        if not targets:
            return None  # the log's positions do not show the ball on
        not_on = [(n, p) for n, p in pos.balls if n not in ("white", on)]
        if self.in_hand or pos.white is None:
            return geometry.snookered_in_hand(self.table, targets, not_on)
        return geometry.snooker_check(
            pos.white, targets, not_on, self.table.ball_diameter_mm
        ).snookered

    def _frame_end(
        self,
        striker: int,
        foul: bool,
        respots: tuple[Respot, ...],
        result_kwargs: dict[str, Any],
    ) -> FrameState:
        """Rule 4: the last black potted or fouled; a tie re-spots the black.

        Rule 4a(ii): when aggregate points count, a tied frame simply ends; rule
        4c: in the last frame, tied aggregates re-spot the black.
        """
        if self.aggregate_before is None:
            tied = self.scores[0] == self.scores[1]
        else:
            totals = [
                a + s for a, s in zip(self.aggregate_before, self.scores, strict=True)
            ]
            tied = self.final_frame and totals[0] == totals[1]
        if self.respotted_black or not tied:
            best: int | None = max(range(len(self.scores)), key=self.scores.__getitem__)
            if self.scores[0] == self.scores[1]:
                best = None  # a drawn frame of an aggregate-points match
            result = ShotResult(
                **result_kwargs,
                free_ball_awarded=False,
                turn_over=True,
                frame_over=True,
            )
            state = (
                self
                if foul
                else replace(
                    self, current_break=self.current_break + result_kwargs["points"]
                )
            )
            return replace(state, shots=(*self.shots, result))._end(winner=best)
        # Rule 4b: the black is re-spotted, lots are drawn, the next player plays
        # from hand and the next score or foul ends the frame. The toss is the next
        # shot's ``player``; without it the player after the striker plays.
        spot = self.table.spots["black"]
        positions = self.positions
        if positions is not None:
            positions = Positions(
                tuple((n, p) for n, p in positions.balls if n not in ("white", "black"))
            ).with_ball("black", spot)
        result = ShotResult(
            **{**result_kwargs, "respotted": (Respot("black", spot),)},
            free_ball_awarded=False,
            turn_over=True,
            frame_over=False,
        )
        if not foul:
            highest = list(self.highest_break)
            current = self.current_break + result_kwargs["points"]
            highest[striker] = max(highest[striker], current)
            state = replace(self, current_break=current, highest_break=tuple(highest))
        else:
            state = self
        return replace(
            state._visit_over(),
            colours=("black",),
            phase=Phase.CLEARANCE,
            in_hand=True,
            positions=positions,
            respotted_black=True,
            awaiting_toss=True,
            to_play=(striker + 1) % len(self.players),
            pending=None,
            free_ball=False,
            shots=(*self.shots, result),
        )


@dataclass(frozen=True)
class _Ruling:
    fouls: tuple[Foul, ...]
    penalty: int
    points: int
    nominated: str | None
    free_ball: str | None
    ball_on: tuple[str, ...]
