"""The games of the seed, each a small module over the shared engine.

``wpbsa`` is the official game (``rules.frame.FrameState``); the others subclass it
(amateur, American) or replace it (snooker golf), the way chess variants subclass
one board.
"""

from __future__ import annotations

from rules.frame import FrameState
from rules.variants.amateur import AmateurFrame
from rules.variants.american import AmericanFrame
from rules.variants.golf import (
    GOLF_POCKETS,
    GolfGame,
    golf_ball,
    golf_colour,
    golf_number,
)

Game = FrameState | GolfGame
"""The state of one frame (or one game of golf)."""

VARIANTS: dict[str, type[FrameState] | type[GolfGame]] = {
    "wpbsa": FrameState,
    "amateur": AmateurFrame,
    "american": AmericanFrame,
    "golf": GolfGame,
}
"""The rules each variant name plays by."""

__all__ = [
    "GOLF_POCKETS",
    "VARIANTS",
    "AmateurFrame",
    "AmericanFrame",
    "Game",
    "GolfGame",
    "golf_ball",
    "golf_colour",
    "golf_number",
]
