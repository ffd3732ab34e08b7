"""A match: frames in sequence, frames won, alternating break-off.

``MatchState`` is immutable like ``FrameState``: ``push`` a record of the match log,
``pop`` to undo it. A log with no ``frame_start`` is one frame of the official game.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rules.balls import COLOURS, REDS
from rules.errors import IllegalShotError, LogError
from rules.frame import FrameState
from rules.records import FrameStart, Record, Rerack

VARIANTS: dict[str, type[FrameState]] = {"wpbsa": FrameState}
"""The rules each variant name plays by."""

DEFAULT_PLAYERS = ("Player 1", "Player 2")


def frame_class(variant: str) -> type[FrameState]:
    """The frame rules of ``variant``.

    Raises:
        LogError: an unknown or not yet supported variant.
    """
    try:
        return VARIANTS[variant]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise LogError(
            f"unknown or unsupported variant {variant!r} (supported: {known})",
            "variant",
        ) from None


@dataclass(frozen=True)
class MatchState:
    """A match of one or more frames.

    Attributes:
        variant: The rules played (``wpbsa`` is the official game).
        players: Player names.
        first_breaker: Who broke off in the first frame.
        frames: Finished frames, in order.
        frame: The frame in play (or the last one, once over).
        variant_forced: The variant was given on the command line and overrides
            the log's.
    """

    variant: str = "wpbsa"
    players: tuple[str, ...] = DEFAULT_PLAYERS
    first_breaker: int = 0
    frames: tuple[FrameState, ...] = ()
    frame: FrameState | None = None
    variant_forced: bool = False
    parent: MatchState | None = field(default=None, compare=False, repr=False)

    @classmethod
    def new(cls, variant: str | None = None) -> MatchState:
        """An empty match; ``variant`` given here overrides the log's."""
        if variant is not None:
            frame_class(variant)
        return cls(variant=variant or "wpbsa", variant_forced=variant is not None)

    @property
    def frames_won(self) -> tuple[int, ...]:
        """Frames won per player."""
        won = [0] * len(self.players)
        for frame in self._all_frames:
            if frame.frame_over and frame.winner is not None:
                won[frame.winner] += 1
        return tuple(won)

    @property
    def _all_frames(self) -> tuple[FrameState, ...]:
        return self.frames + ((self.frame,) if self.frame is not None else ())

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
        return replace(new, parent=self)

    def _rerack(self) -> MatchState:
        """Part 3 rule 16: a stalemate; every point is annulled and the balls are
        racked again, the same player breaking off, the order of play unchanged."""
        frame = self.frame
        if frame is None or frame.frame_over:
            raise IllegalShotError("no frame in play to re-rack", "type")
        rules = frame_class(self.variant)
        fresh = rules.new(
            players=frame.players, breaker=frame.breaker, reds=self._reds(frame)
        )
        return replace(self, frame=fresh)

    @staticmethod
    def _reds(frame: FrameState) -> int:
        """How many reds the frame was racked with."""
        while frame.parent is not None:
            frame = frame.parent
        return frame.reds

    def _start_frame(self, start: FrameStart) -> MatchState:
        """A new frame (Part 3 rule 3b: the break-off alternates)."""
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
        if frames:
            first = self.first_breaker
            breaker = (first + len(frames)) % len(players)
            if start.breaker is not None:
                breaker = start.breaker
        else:
            first = breaker = start.breaker or 0
        if not 0 <= breaker < len(players):
            raise LogError(f"no player {breaker} to break off", "breaker")
        frame = rules.new(players=players, breaker=breaker, reds=start.reds or REDS)
        return replace(
            self,
            variant=variant,
            players=players,
            first_breaker=first,
            frames=frames,
            frame=frame,
        )

    def to_json(self) -> dict[str, Any]:
        """The state as ``baulk score --json`` prints it (see the contracts)."""
        frame = self.frame or frame_class(self.variant).new(players=self.players)
        highest = [0] * len(self.players)
        shots = []
        for number, f in enumerate(self._all_frames, start=1):
            for i, best in enumerate(f.highest_break):
                highest[i] = max(highest[i], best)
            for result in f.shots:
                shots.append({**result.to_json(), "frame": number})
        for i in range(len(highest)):
            if frame.to_play == i and not frame.frame_over:
                highest[i] = max(highest[i], frame.current_break)
        on_table = {"red": frame.reds}
        on_table.update({c: int(c in frame.colours) for c in COLOURS})
        return {
            "variant": self.variant,
            "players": list(self.players),
            "scores": list(frame.scores),
            "to_play": frame.to_play,
            "ball_on": list(frame.ball_on),
            "free_ball": not frame.frame_over
            and bool(frame.free_ball or (frame.pending and frame.pending.free_ball)),
            "frame_over": frame.frame_over,
            "winner": frame.winner,
            "current_break": frame.current_break,
            "highest_break": highest,
            "respotted_black": frame.respotted_black,
            "on_table": on_table,
            "shots": shots,
            "frames_won": list(self.frames_won),
            "frame_number": len(self._all_frames) or 1,
            "breaker": frame.breaker,
            "in_hand": frame.in_hand,
            "awaiting_decision": frame.pending is not None,
            "free_ball_awarded": bool(frame.pending and frame.pending.free_ball),
            "conceded": frame.conceded,
            "points_remaining": frame.points_remaining,
            "snookers_required": list(frame.snookers_required),
            "phase": str(frame.phase),
        }
