"""A match: frames in sequence, frames won, alternating break-off, match play.

``MatchState`` is immutable like ``FrameState``: ``push`` a record of the match log,
``pop`` to undo it. A log with no ``frame_start`` is one frame of the official game.

Match play (seed Part 2 rules 2, 3; Part 3 rules 1f-h, 3b, 4; Part 4 rules 3, 6):
a match is the best of ``best_of`` frames, or ``frames`` frames whose total of
points decides it (``aggregate``); the break-off alternates; a game awarded against
a player (Part 4 rule 3b) ends the match.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.balls import REDS
from rules.errors import IllegalShotError, LogError
from rules.frame import FrameState
from rules.records import Forfeit, FrameStart, Record, Rerack
from rules.variants import VARIANTS, Game, GolfGame

DEFAULT_PLAYERS = ("Player 1", "Player 2")

MAXIMUM = 147
"""Part 4 rule 3b(iii): each frame of a game awarded on aggregate is 147-0."""


def frame_class(variant: str) -> type[Game]:
    """The frame rules of ``variant``.

    Raises:
        LogError: an unknown variant.
    """
    try:
        return VARIANTS[variant]  # type: ignore[return-value]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise LogError(
            f"unknown variant {variant!r} (known: {known})", "variant"
        ) from None


@dataclass(frozen=True)
class MatchState:
    """A match of one or more frames.

    Attributes:
        variant: The rules played (``wpbsa`` is the official game).
        players: Player names.
        first_breaker: Who broke off in the first frame.
        best_of: The match is the best of this many frames, if set.
        aggregate: Total points decide the match (Part 3 rule 1g(ii)).
        total_frames: Frames of an aggregate match, if known.
        frames: Finished frames, in order.
        frame: The frame in play (or the last one, once over).
        awarded: Frames (or, on aggregate, points) awarded per side for a game
            forfeited (Part 4 rule 3b).
        variant_forced: The variant was given on the command line and overrides
            the log's.
    """

    variant: str = "wpbsa"
    players: tuple[str, ...] = DEFAULT_PLAYERS
    first_breaker: int = 0
    best_of: int | None = None
    aggregate: bool = False
    total_frames: int | None = None
    frames: tuple[Game, ...] = ()
    frame: Game | None = None
    awarded: tuple[int, ...] = ()
    variant_forced: bool = False
    parent: MatchState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def new(cls, variant: str | None = None) -> MatchState:
        """An empty match; ``variant`` given here overrides the log's."""
        if variant is not None:
            frame_class(variant)
        return cls(variant=variant or "wpbsa", variant_forced=variant is not None)

    @property
    def _all_frames(self) -> tuple[Game, ...]:
        return self.frames + ((self.frame,) if self.frame is not None else ())

    @property
    def _sides(self) -> int:
        frame = self.frame
        return len(frame.scores) if frame is not None else 2

    @property
    def frames_won(self) -> tuple[int, ...]:
        """Frames won per side (per player in golf), forfeited games included."""
        won = [0] * self._sides
        for frame in self._all_frames:
            if frame.frame_over and frame.winner is not None:
                won[frame.winner] += 1
        if self.awarded and not self.aggregate:
            won = [w + a for w, a in zip(won, self.awarded, strict=True)]
        return tuple(won)

    @property
    def points_total(self) -> tuple[int, ...]:
        """Points per side over every frame (Part 3 rule 1g(ii))."""
        totals = [0] * self._sides
        for frame in self._all_frames:
            totals = [t + s for t, s in zip(totals, frame.scores, strict=True)]
        if self.awarded and self.aggregate:
            totals = [t + a for t, a in zip(totals, self.awarded, strict=True)]
        return tuple(totals)

    @property
    def match_over(self) -> bool:
        """The match is decided: a majority of ``best_of``, or every frame played."""
        if self.awarded:
            return True
        if self.best_of is not None:
            return max(self.frames_won) > self.best_of // 2
        if self.aggregate and self.total_frames is not None:
            frames = self._all_frames
            return len(frames) >= self.total_frames and frames[-1].frame_over
        return False

    @property
    def match_winner(self) -> int | None:
        """The side that won the match, once it is over (Part 3 rule 1g)."""
        if not self.match_over:
            return None
        tally = self.points_total if self.aggregate else self.frames_won
        best = max(tally)
        leaders = [i for i, t in enumerate(tally) if t == best]
        return leaders[0] if len(leaders) == 1 else None

    def pop(self) -> MatchState:
        """The state before the last ``push``.

        Raises:
            IndexError: nothing has been pushed.
        """
        if self.parent is None:
            raise IndexError("pop from a match with no records pushed")
        return self.parent

    def push(self, record: Record) -> MatchState:
        """The state after ``record`` (any record type of the match log)."""
        if isinstance(record, FrameStart):
            new = self._start_frame(record)
        elif isinstance(record, Rerack):
            new = self._rerack()
        else:
            state = self if self.frame is not None else self._start_frame(FrameStart())
            assert state.frame is not None
            new = replace(state, frame=state.frame.push(record))
            if isinstance(record, Forfeit) and record.game:
                new = new._forfeit_game(record.player)
        return replace(new, parent=self)

    def _forfeit_game(self, offender: int) -> MatchState:
        """Part 4 rule 3b: the offender also loses the frames needed to end the
        game, or, on aggregate, every remaining frame 147-0."""
        assert self.frame is not None
        loser = offender % self._sides
        winner = (loser + 1) % self._sides
        awarded = [0] * self._sides
        if self.aggregate:
            played = len(self._all_frames)
            remaining = max(0, (self.total_frames or played) - played)
            awarded[winner] = MAXIMUM * remaining
        else:
            needed = (self.best_of or 1) // 2 + 1
            awarded[winner] = max(0, needed - self.frames_won[winner])
        return replace(self, awarded=tuple(awarded))

    def _rerack(self) -> MatchState:
        """Part 3 rule 16: a stalemate; every point is annulled and the balls are
        racked again, the same player breaking off, the order of play unchanged."""
        frame = self.frame
        if not isinstance(frame, FrameState) or frame.frame_over:
            raise IllegalShotError("no frame of snooker in play to re-rack", "type")
        first = frame
        while first.parent is not None:
            first = first.parent
        return replace(self, frame=replace(first, parent=None))

    def _start_frame(self, start: FrameStart) -> MatchState:
        """A new frame (Part 3 rule 3b: the break-off alternates)."""
        if self.match_over:
            raise IllegalShotError("the match is over", "type")
        frames = self.frames
        if self.frame is not None:
            if not self.frame.frame_over:
                raise IllegalShotError(f"frame {len(frames) + 1} is not over", "type")
            frames = (*frames, self.frame)
        variant = self.variant
        if start.variant is not None and not self.variant_forced:
            if frames and start.variant != variant:
                raise LogError("the variant cannot change within a match", "variant")
            variant = start.variant
        rules = frame_class(variant)
        players = self.players
        if start.players is not None:
            if frames and start.players != players:
                raise LogError("the players cannot change within a match", "players")
            players = start.players
        best_of = start.best_of if start.best_of is not None else self.best_of
        aggregate = (
            bool(start.aggregate) if start.aggregate is not None else (self.aggregate)
        )
        total = start.frames if start.frames is not None else self.total_frames
        if frames and (best_of, aggregate, total) != (
            self.best_of,
            self.aggregate,
            self.total_frames,
        ):
            raise LogError("the match format cannot change within a match", "type")
        if best_of is not None and aggregate:
            raise LogError(
                "a match is best of N frames or on aggregate, not both", "aggregate"
            )
        if frames:
            first = self.first_breaker
            breaker = (first + len(frames)) % len(players)
            if start.breaker is not None:
                breaker = start.breaker
        else:
            first = breaker = start.breaker or 0
        if not 0 <= breaker < len(players):
            raise LogError(f"no player {breaker} to break off", "breaker")
        aggregate_before = None
        if aggregate:
            aggregate_before = replace(self, frames=frames, frame=None).points_total
        if rules is GolfGame:
            frame: Game = GolfGame.new(players, breaker, start.pockets)
        else:
            frame = rules.new(
                players=players,
                breaker=breaker,
                reds=start.reds or REDS,
                aggregate_before=aggregate_before,
                final_frame=total is not None and len(frames) + 1 == total,
            )
        return replace(
            self,
            variant=variant,
            players=players,
            first_breaker=first,
            best_of=best_of,
            aggregate=aggregate,
            total_frames=total,
            frames=frames,
            frame=frame,
        )

    def to_json(self) -> dict[str, Any]:
        """The state as ``baulk score --json`` prints it (see the contracts)."""
        frame = self.frame
        if frame is None:
            rules = frame_class(self.variant)
            frame = rules.new(players=self.players)
        highest = [0] * len(self.players)
        shots = []
        for number, f in enumerate(self._all_frames, start=1):
            highest = [max(h, b) for h, b in zip(highest, f.breaks, strict=True)]
            for result in f.shots:
                shots.append({**result.to_json(), "frame": number})
        data: dict[str, Any] = {"variant": self.variant, "players": list(self.players)}
        data.update(frame.summary())
        data.update(
            {
                "highest_break": highest,
                "shots": shots,
                "frames_won": list(self.frames_won),
                "frame_number": len(self._all_frames) or 1,
                "best_of": self.best_of,
                "aggregate": self.aggregate,
                "points_total": list(self.points_total),
                "match_over": self.match_over,
                "match_winner": self.match_winner,
            }
        )
        if len(self.players) == 4 and isinstance(frame, FrameState):
            data["sides"] = [list(side) for side in frame.sides]
        return data
