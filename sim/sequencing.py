"""MINIMAL SEQUENCING FOR THE SIMULATED PLAYER: NOT A RULES ENGINE.

Placeholder until the rules engine (``rules/``) can be asked instead: it only decides
what the simulated player does next (which ball is on, whether the player's turn
continues, which colours come back to their spots, whether the cue ball is in hand).
It ignores free balls, misses, re-spotted black, touching balls and the like, and it
does NOT score: the expected score of a clip comes from ``baulk score`` on the match
log. Swap ``next_state`` for the engine when it exists.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from calibration.table import TableSpec

COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
"""Colours in the order they are potted once the reds are gone."""


def name_of(key: str) -> str:
    """Contract name of a ball key (``red_03`` -> ``red``)."""
    return key.split("_")[0]


@dataclass(frozen=True)
class FrameState:
    """Where a frame stands between strokes (placeholder, see module docstring).

    Attributes:
        positions: Ball key -> (x, y) table mm of every ball on the table.
        ball_on: ``"red"``, ``"colour"`` (any colour, after a red) or a colour name.
        cue_in_hand: The cue ball is to be placed in the D.
        to_play: Index of the player to play (0 or 1).
        strokes: Strokes played so far.
    """

    positions: Mapping[str, tuple[float, float]]
    ball_on: str
    cue_in_hand: bool
    to_play: int = 0
    strokes: int = 0

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
        """No object ball left."""
        return not any(k != "white" for k in self.positions)


@dataclass(frozen=True)
class Outcome:
    """What happened in a stroke, as the placeholder sequencing needs it.

    Attributes:
        first_contact: Keys of the balls the cue ball struck first.
        potted: Keys of the balls potted.
        off_table: Keys of the balls forced off the table.
        final: Key -> rest position (x, y) mm of the balls left on the table.
        nominated: The colour the player meant to play, if any.
    """

    first_contact: Sequence[str]
    potted: Sequence[str]
    off_table: Sequence[str]
    final: Mapping[str, tuple[float, float]]
    nominated: str | None = None


def _lowest_colour(keys: Sequence[str]) -> str | None:
    present = {name_of(k) for k in keys}
    return next((c for c in COLOURS if c in present), None)


def respot(
    colour: str, positions: Mapping[str, tuple[float, float]], table: TableSpec
) -> tuple[float, float]:
    """Where a colour goes back: its spot, else the highest free spot, else nearer
    the top cushion on the line from its spot (simplified)."""
    r2 = (2 * table.ball_radius) ** 2

    def free(p: tuple[float, float]) -> bool:
        return all(
            (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= r2 for q in positions.values()
        )

    spots = table.spots
    if free(spots[colour]):
        return spots[colour]
    for c in reversed(COLOURS):
        if free(spots[c]):
            return spots[c]
    x, y = spots[colour]
    while x < table.half_length - table.ball_radius:
        x += 1.0
        if free((x, y)):
            return (x, y)
    return spots[colour]


def next_state(
    state: FrameState, outcome: Outcome, table: TableSpec
) -> tuple[FrameState, dict[str, tuple[float, float]]]:
    """The next stroke's state, and the colours re-spotted (key -> position).

    Placeholder sequencing: see the module docstring.
    """
    on = set(state.on_keys())
    gone = set(outcome.potted) | set(outcome.off_table)
    first = list(outcome.first_contact)
    foul = (
        not first
        or any(k not in on for k in first)
        or "white" in gone
        or any(k not in on for k in outcome.potted)
        or bool(set(outcome.off_table) - {"white"})
    )
    if state.ball_on == "colour" and outcome.nominated and first:
        foul = foul or name_of(first[0]) != outcome.nominated
    positions = dict(outcome.final)
    reds_left = any(name_of(k) == "red" for k in positions)
    respotted: dict[str, tuple[float, float]] = {}
    # Colours come back while reds remain (or after the stroke that potted the last
    # red), and always when potted in a foul.
    in_colours_phase = state.ball_on not in ("red", "colour")
    for k in sorted(
        gone, key=lambda k: -COLOURS.index(name_of(k)) if name_of(k) in COLOURS else 0
    ):
        if name_of(k) not in COLOURS:
            continue
        if in_colours_phase and not foul and name_of(k) == state.ball_on:
            continue
        spot = respot(name_of(k), positions, table)
        positions[k] = spot
        respotted[k] = spot
    potted_legal = bool(outcome.potted) and not foul
    if potted_legal:
        player = state.to_play
        if state.ball_on == "red":
            ball_on = "colour"
        elif state.ball_on == "colour":
            ball_on = (
                "red" if reds_left else (_lowest_colour(list(positions)) or "black")
            )
        else:
            ball_on = _lowest_colour(list(positions)) or "black"
    else:
        player = 1 - state.to_play
        ball_on = "red" if reds_left else (_lowest_colour(list(positions)) or "black")
    in_hand = "white" in gone
    if in_hand:
        positions.pop("white", None)
    return (
        replace(
            state,
            positions=positions,
            ball_on=ball_on,
            cue_in_hand=in_hand,
            to_play=player,
            strokes=state.strokes + 1,
        ),
        respotted,
    )


def place_in_d(
    positions: Mapping[str, tuple[float, float]],
    table: TableSpec,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """A free random spot for the cue ball in the D."""
    r2 = (2 * table.ball_radius + 1.0) ** 2
    bx, rad = table.baulk_line_x, table.d_radius_mm
    for _ in range(1000):
        a = rng.uniform(math.pi / 2, 1.5 * math.pi)
        d = rad * math.sqrt(rng.uniform(0.05, 0.95))
        p = (bx + d * math.cos(a), d * math.sin(a))
        if all(
            (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= r2 for q in positions.values()
        ):
            return p
    return (bx - rad / 2, 0.0)


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
