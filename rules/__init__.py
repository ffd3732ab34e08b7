"""The rules of snooker: a pure-Python engine that reads the match log.

Standard library only (and ``calibration.table`` for the table's geometry).
"""

from rules.balls import COLOURS, VALUES, Ball
from rules.errors import IllegalDecisionError, IllegalShotError, LogError, RulesError
from rules.fouls import Foul
from rules.frame import FrameState, Phase, Respot, ShotResult
from rules.log import Replay, read_records, replay
from rules.match import VARIANTS, MatchState
from rules.records import (
    Choice,
    Claim,
    Concede,
    Decision,
    Forfeit,
    FrameStart,
    Positions,
    Pot,
    RefereeFoul,
    Rerack,
    Shot,
    parse_record,
)

__all__ = [
    "COLOURS",
    "VALUES",
    "VARIANTS",
    "Ball",
    "Choice",
    "Claim",
    "Concede",
    "Decision",
    "Forfeit",
    "Foul",
    "FrameStart",
    "FrameState",
    "IllegalDecisionError",
    "IllegalShotError",
    "LogError",
    "MatchState",
    "Phase",
    "Positions",
    "Pot",
    "RefereeFoul",
    "Replay",
    "Rerack",
    "Respot",
    "RulesError",
    "Shot",
    "ShotResult",
    "parse_record",
    "read_records",
    "replay",
]
