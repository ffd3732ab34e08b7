"""Between strokes: what the rules engine says happens next, for the simulated player.

The simulated player asks the rules engine (``rules/``) which ball is on, whether
the visit goes on, which colours come back and where (seed Part 3 rule 7), and
whether the cue ball is in hand: each stroke's match-log record is pushed into a
``rules.FrameState``. After a foul the next player plays on (no ``decision`` record:
the engine's default).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from calibration.table import TableSpec
from rules import COLOURS, VARIANTS, Phase, parse_record
from rules import FrameState as Referee
from rules.variants import GolfGame, golf_colour


def name_of(key: str) -> str:
    """Contract name of a ball key (``red_03`` -> ``red``)."""
    return key.split("_")[0]


@dataclass(frozen=True)
class FrameState:
    """Where a frame stands between strokes.

    Attributes:
        positions: Ball key -> (x, y) table mm of every ball on the table.
        ball_on: ``"red"``, ``"colour"`` (any colour, after a red) or a colour name.
        cue_in_hand: The cue ball is to be placed in the D.
        to_play: Index of the player to play (0 or 1).
        strokes: Strokes played so far.
        referee: The rules engine's state of the frame.
        pocket_on: Snooker golf: the only pocket the striker may pot into.
    """

    positions: Mapping[str, tuple[float, float]]
    ball_on: str
    cue_in_hand: bool
    to_play: int = 0
    strokes: int = 0
    referee: Referee | GolfGame | None = field(default=None, compare=False)
    pocket_on: str | None = None

    def on_keys(self) -> list[str]:
        """Keys of the balls that are on."""
        keys = [k for k in self.positions if k != "white"]
        if self.ball_on == "red":
            return [k for k in keys if name_of(k) == "red"]
        if self.ball_on == "colour":
            return [k for k in keys if name_of(k) in COLOURS]
        return [k for k in keys if name_of(k) == self.ball_on]

    @property
    def frame_over(self) -> bool:
        """The referee ended the frame, or no object ball is left."""
        if self.referee is not None and self.referee.frame_over:
            return True
        return not any(k != "white" for k in self.positions)


def start_state(
    positions: Mapping[str, tuple[float, float]],
    reds: int,
    table: TableSpec,
    variant: str = "wpbsa",
) -> FrameState:
    """The state at the break-off: the rack, the cue ball in hand.

    Args:
        positions: The rack.
        reds: Reds in the rack.
        table: The table.
        variant: The rules played: ``wpbsa``, ``amateur`` or ``american``.
    """
    rules = VARIANTS[variant]
    if not issubclass(rules, Referee):
        raise ValueError(f"the simulated player does not play {variant}")
    referee = rules.new(reds=reds, table=table)
    return FrameState(
        positions=positions, ball_on="red", cue_in_hand=True, referee=referee
    )


@dataclass(frozen=True)
class Outcome:
    """What happened in a stroke.

    Attributes:
        record: The stroke's contract ``shot`` record (with ``positions``).
        final: Key -> rest position (x, y) mm of the balls left on the table.
    """

    record: Mapping[str, Any]
    final: Mapping[str, tuple[float, float]]


def golf_start_state(players: int, table: TableSpec) -> FrameState:
    """Snooker golf, golf rules 3 and 6: the first player's ball (the yellow) on
    the back spot (the black's), the cue ball on the centre spot (the blue's)."""
    referee = GolfGame.new(tuple(f"Player {i + 1}" for i in range(players)))
    positions = {golf_colour(0): table.spots["black"], "white": table.spots["blue"]}
    return FrameState(
        positions=positions,
        ball_on=golf_colour(0),
        cue_in_hand=False,
        referee=referee,
        pocket_on=str(referee.pocket_on),
    )


def _golf_next(
    state: FrameState,
    referee: GolfGame,
    positions: dict[str, tuple[float, float]],
    table: TableSpec,
) -> FrameState:
    """Golf rules 6, 7: the next player's ball on the back spot; on the first
    hole the cue ball back on the centre spot, later where it stopped."""
    player = referee.to_play
    own = golf_colour(player)
    if referee.frame_over:
        return replace(state, positions=positions, referee=referee)
    if player != state.to_play or own not in positions:
        positions = {k: v for k, v in positions.items() if k == "white"}
        positions[own] = table.spots["black"]
        if referee.holes_done[player] == 0:
            positions["white"] = table.spots["blue"]
    in_hand = referee.in_hand and "white" not in positions
    return replace(
        state,
        positions=positions,
        ball_on=own,
        cue_in_hand=in_hand,
        to_play=player,
        strokes=state.strokes + 1,
        referee=referee,
        pocket_on=None if referee.pocket_on is None else str(referee.pocket_on),
    )


def _ball_on(referee: Referee) -> str:
    if referee.phase is Phase.RED:
        return "red"
    if referee.phase is Phase.COLOUR:
        return "colour"
    return referee.colours[0] if referee.colours else "black"


def next_state(
    state: FrameState, outcome: Outcome, table: TableSpec
) -> tuple[FrameState, dict[str, tuple[float, float]]]:
    """The next stroke's state, and the balls re-spotted (key -> position).

    Raises:
        rules.RulesError: the record is impossible (a bug of the simulation).
    """
    assert state.referee is not None
    referee = state.referee.push(parse_record(dict(outcome.record)))
    positions = dict(outcome.final)
    respotted: dict[str, tuple[float, float]] = {}
    last = referee.last
    golf = isinstance(referee, GolfGame)
    for respot in last.respotted if last is not None else ():
        # Colour keys are the colour names; golf balls stand as colours.
        key = golf_colour(int(respot.ball) - 1) if golf else respot.ball
        respotted[key] = respot.position
        positions[key] = respot.position
    if referee.in_hand:
        positions.pop("white", None)
    if isinstance(referee, GolfGame):
        return _golf_next(state, referee, positions, table), respotted
    return (
        replace(
            state,
            positions=positions,
            ball_on=_ball_on(referee),
            cue_in_hand=referee.in_hand,
            to_play=referee.to_play,
            strokes=state.strokes + 1,
            referee=referee,
        ),
        respotted,
    )


def place_in_d(
    positions: Mapping[str, tuple[float, float]],
    table: TableSpec,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """A free random spot for the cue ball in the D."""
    bx, rad = table.baulk_line_x, table.d_radius_mm

    def draw() -> tuple[float, float]:
        a = rng.uniform(math.pi / 2, 1.5 * math.pi)
        d = rad * math.sqrt(rng.uniform(0.05, 0.95))
        return (bx + d * math.cos(a), d * math.sin(a))

    return _clear_spot(draw, positions, table) or (bx - rad / 2, 0.0)


def break_place(
    positions: Mapping[str, tuple[float, float]],
    table: TableSpec,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """Where a player sets the cue ball down to break: near the baulk line, off
    the brown, towards the yellow or the green, and clear of them (seed 510's
    had been set down 46.6 mm from the yellow, overlapping it: the physics then
    had it strike the yellow first)."""
    def draw() -> tuple[float, float]:
        return (table.baulk_line_x - float(rng.uniform(0, 40)),
                float(rng.choice([-1, 1])
                      * rng.uniform(60, 0.85 * table.d_radius_mm)))

    return _clear_spot(draw, positions, table) or place_in_d(positions, table, rng)


def _clear_spot(
    draw: Callable[[], tuple[float, float]],
    positions: Mapping[str, tuple[float, float]],
    table: TableSpec,
) -> tuple[float, float] | None:
    """The first of up to 1000 spots from ``draw`` at least a millimetre clear of
    every ball in ``positions``, or None."""
    r2 = (2 * table.ball_radius + 1.0) ** 2
    for _ in range(1000):
        p = draw()
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= r2
               for q in positions.values()):
            return p
    return None


def rack(
    table: TableSpec, reds: int = 15, gap_mm: float = 0.2
) -> dict[str, tuple[float, float]]:
    """The balls at the start of a frame: colours on their spots, the reds' triangle
    behind the pink (rows of 1, 2, ... with ``reds`` balls in all)."""
    positions: dict[str, tuple[float, float]] = {c: table.spots[c] for c in COLOURS}
    d = 2 * table.ball_radius + gap_mm
    px = table.spots["pink"][0] + d
    n, row = 0, 0
    while n < reds:
        for j in range(row + 1):
            if n >= reds:
                break
            n += 1
            positions[f"red_{n:02d}"] = (
                px + row * d * math.sqrt(3) / 2,
                (j - row / 2) * d,
            )
        row += 1
    return positions
