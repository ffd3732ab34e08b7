"""Ball names and values (seed Part 1 rule 2, Part 3 rule 1a)."""

from __future__ import annotations

from enum import StrEnum


class Ball(StrEnum):
    """The balls of snooker, named as in the match log."""

    WHITE = "white"
    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BROWN = "brown"
    BLUE = "blue"
    PINK = "pink"
    BLACK = "black"


COLOURS: tuple[str, ...] = ("yellow", "green", "brown", "blue", "pink", "black")
"""The six colours in ascending value: the order of the final clearance."""

OBJECT_BALLS: frozenset[str] = frozenset(("red", *COLOURS))
"""Every object ball name (all reds are ``red``)."""

VALUES: dict[str, int] = {
    "red": 1,
    "yellow": 2,
    "green": 3,
    "brown": 4,
    "blue": 5,
    "pink": 6,
    "black": 7,
}
"""Seed Part 1 rule 2: points for each object ball."""

REDS = 15
"""Seed Part 2 rule 4b: fifteen reds in a full rack."""


def value(ball: str) -> int:
    """Points for potting ``ball``; the cue ball is worth nothing."""
    return VALUES.get(ball, 0)
