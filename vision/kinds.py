"""The eight kinds of ball (the contract's names, from ``rules.balls``) and the snooker
limits on how many of each there are."""

from __future__ import annotations

from rules.balls import COLOURS as COLOUR_NAMES
from rules.balls import Ball as BallKind

KINDS: tuple[BallKind, ...] = tuple(BallKind)
"""Kinds in class-index order (the ONNX model's outputs 0-7; output 8 is "none")."""

COLOURS: tuple[BallKind, ...] = tuple(BallKind(c) for c in COLOUR_NAMES)
"""The six colours, in value order."""

NONE_CLASS = len(KINDS)
"""Class index of "not a ball" in classifier outputs."""

MAX_COUNT: dict[BallKind, int] = {k: 1 for k in KINDS} | {BallKind.RED: 15}
"""At most one white and one of each colour; at most 15 reds."""


def kind_index(kind: str) -> int:
    """Class index of a kind name (``ValueError`` if unknown)."""
    return KINDS.index(BallKind(kind))
