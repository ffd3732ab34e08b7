"""Builders for the rules scenarios: match-log records as contract dicts.

Every record goes through ``parse_record`` and ``MatchState.push`` exactly as a line
of a match log would, so the scenarios exercise the public API only.
"""

from __future__ import annotations

from typing import Any

from calibration.table import OFFICIAL
from rules import FrameState, MatchState, ShotResult, parse_record

Record = dict[str, Any]
Point = tuple[float, float]

SPOTS: dict[str, Point] = OFFICIAL.spots
"""The colour spots of the official table (seed Part 1 rule 1f)."""

D = OFFICIAL.ball_diameter_mm
"""One ball diameter, mm."""

COLOUR_ORDER = ("yellow", "green", "brown", "blue", "pink", "black")
"""Seed Part 3 rule 1a: the colours in ascending value."""


def start(**fields: Any) -> Record:
    """A ``frame_start`` record."""
    return {"type": "frame_start", **fields}


def shot(
    first: str | list[str] | None = None, potted: list[str] | tuple = (), **fields: Any
) -> Record:
    """A ``shot`` record; ``first`` is the first contact (``None``: no ball struck)."""
    if first is None:
        first_contact: list[str] = []
    elif isinstance(first, str):
        first_contact = [first]
    else:
        first_contact = list(first)
    return {
        "type": "shot",
        "first_contact": first_contact,
        "potted": list(potted),
        **fields,
    }


def pot(ball: str, **fields: Any) -> Record:
    """Strike ``ball`` first and pot it (a colour is nominated explicitly)."""
    if ball != "red":
        fields.setdefault("nominated", ball)
    return shot(ball, [ball], **fields)


def safety(ball: str = "red", **fields: Any) -> Record:
    """Strike ``ball`` first and pot nothing: a legal stroke that ends the visit."""
    return shot(ball, [], **fields)


def decision(choice: str) -> Record:
    """A ``decision`` record: ``play``, ``play_again`` or ``restore``."""
    return {"type": "decision", "choice": choice}


def concede() -> Record:
    """A ``concede`` record."""
    return {"type": "concede"}


def foul7(first: str = "red", **fields: Any) -> Record:
    """A legal-looking stroke with a seven-point referee foul (measuring, 12d(ii))."""
    return shot(first, [], referee_fouls=["measuring"], **fields)


def push_all(state: MatchState, *records: Record) -> MatchState:
    """Push each record (a contract dict) into ``state``."""
    for number, record in enumerate(records, start=1):
        state = state.push(parse_record(record, number))
    return state


def play(*records: Record) -> MatchState:
    """A new match with ``records`` pushed in order."""
    return push_all(MatchState.new(), *records)


def frame(*records: Record) -> FrameState:
    """The frame after ``records``."""
    state = play(*records).frame
    assert state is not None
    return state


def last(*records: Record) -> ShotResult:
    """The result of the last stroke after ``records``."""
    result = frame(*records).shots[-1]
    return result


def layout(
    white: Point | None = None,
    reds: list[Point] | tuple = (),
    colours: tuple[str, ...] = COLOUR_ORDER,
    **moved: Point,
) -> dict[str, Any]:
    """A ``positions`` object: colours on their spots unless ``moved``.

    Args:
        white: The cue ball (omitted when ``None``: potted or off the table).
        reds: Every red on the table.
        colours: The colours on the table.
        moved: Colours not on their spots, by name.
    """
    out: dict[str, Any] = {}
    if white is not None:
        out["white"] = list(white)
    if reds:
        out["red"] = [list(p) for p in reds]
    for colour in colours:
        out[colour] = list(moved.get(colour, SPOTS[colour]))
    return out


def after_last_red(colour: str = "black") -> tuple[Record, ...]:
    """A one-red frame: the breaker pots the red and ``colour``; yellow is then on.

    Seed Part 3 rule 3f(ii): after the last red a colour is played and respotted.
    """
    return (start(reds=1), pot("red"), pot(colour))


def clearance_to(ball_on: str, colour: str = "black") -> tuple[Record, ...]:
    """A one-red frame cleared by the breaker up to ``ball_on`` (still his visit)."""
    records = list(after_last_red(colour))
    for c in COLOUR_ORDER[: COLOUR_ORDER.index(ball_on)]:
        records.append(pot(c))
    return tuple(records)


def points(*colours: str) -> int:
    """Sum of the values of ``colours`` (seed Part 1 rule 2)."""
    values = {"red": 1, "yellow": 2, "green": 3, "brown": 4}
    values |= {"blue": 5, "pink": 6, "black": 7}
    return sum(values[c] for c in colours)
