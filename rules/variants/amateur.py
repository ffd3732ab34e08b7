"""International (amateur) snooker: the seed's section "Международный (Английский)
снукер (любительская версия)".

The official game on the amateur table, with the differences the section states.
Rule numbers below are that section's ("amateur rule 9.20" is rule 20 of its rules
of play, rule 9).
"""

from __future__ import annotations

from typing import ClassVar

from calibration.table import AMATEUR, TableSpec
from rules.fouls import Foul
from rules.frame import FrameState
from rules.records import Choice


class AmateurFrame(FrameState):
    """A frame of international amateur snooker.

    - Amateur rules 1, 4, 5: a 3500 x 1750 mm table, the baulk line 700 mm from the
      baulk cushion, a D of radius 292 mm.
    - Amateur rule 9.16 (angled): after a foul leaving the cue ball angled by a
      pocket's jaw, the next player may play from the D instead: the decision
      ``play_from_hand`` (the referee declares the angle; the log records the
      choice).
    - Amateur rule 9.20 (miss): the next player may accept the position or have the
      cue ball returned and the stroke replayed (``restore``). The section has no
      rule that a third miss loses the frame.
    - Amateur penalties, item 4: seven points only for a foul after a red before
      the colour is nominated, using a ball out of play, playing a red when a colour
      is on and using a ball other than the white as the cue ball. Measuring and a
      wrong nomination are not listed: they cost the value of the ball on (at
      least four, as every penalty of the section).
    - Amateur penalties, item 2.4: playing with a wrongly spotted ball is a foul
      (the referee's ``wrongly_spotted``).
    - Free ball (9.21), touching ball (9.18), spotting (9.12), the re-spotted black
      (rule 7) and the other penalties are as in the official rules.
    """

    variant: ClassVar[str] = "amateur"
    default_table: ClassVar[TableSpec] = AMATEUR
    three_misses_lose: ClassVar[bool] = False
    seven_point_fouls: ClassVar[frozenset[Foul]] = frozenset(
        {
            Foul.FOUL_BEFORE_NOMINATING,
            Foul.BALL_OUT_OF_PLAY_USED,
            Foul.RED_AFTER_RED,
            Foul.WRONG_CUE_BALL,
        }
    )
    decisions: ClassVar[frozenset[Choice]] = frozenset(
        {Choice.PLAY, Choice.PLAY_AGAIN, Choice.RESTORE, Choice.PLAY_FROM_HAND}
    )
