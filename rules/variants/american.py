"""American snooker: the seed's section "Американский снукер".

Rule numbers below are that section's ("American rule 7").
"""

from __future__ import annotations

from typing import ClassVar

from rules.fouls import SEVEN, Foul
from rules.frame import FrameState
from rules.records import Shot


class AmericanFrame(FrameState):
    """A frame of American snooker.

    - American rule 12: every foul gives the opponent seven points; the offender
      loses none. A stroke with several fouls is one foul of seven: the section
      counts fouls per violation of the stroke and, as in every pocket game it is
      built on, a stroke is called foul once.
    - American rule 6: the break-off is played from the D; the cue ball must first
      strike a red, then a red must reach a cushion or be potted and the cue ball
      must at least reach a cushion. An illegal break-off is a foul, and the
      opponent may accept the position or have the offender break off again
      (``restore``: the balls are racked again).
    - American rule 7: on every stroke, after the cue ball strikes the ball on, an
      object ball must be potted or the cue ball or an object ball must reach a
      cushion. Judged from ``cushion_after_contact``; a log without it is not
      judged on this point.
    - American rule 9: object balls forced off the table are no foul; reds stay
      off, colours are re-spotted.
    - American rule 11: a cue ball potted or forced off the table gives the next
      player the cue ball in hand in the D. The section names no penalty for it;
      we keep it a foul, as in the official rules (Part 3 rule 12a(vi)) and in
      the pocket games the section is built on.
    - American rule 12: after a foul the next player plays or has the offender play
      again. The section has no free ball and no miss rule.
    - Colours are nominated while reds remain (rule 7), re-spotted (rule 10) as in
      the official game; the tie on the last black re-spots it (rule 5).
    """

    variant: ClassVar[str] = "american"
    player_counts: ClassVar[tuple[int, ...]] = (2,)  # American rule 1: two players
    free_ball_rule: ClassVar[bool] = False
    miss_rule: ClassVar[bool] = False
    three_misses_lose: ClassVar[bool] = False

    def _penalty(self, fouls: list[tuple[Foul, int]]) -> int:
        """American rule 12: seven points."""
        return SEVEN

    def _object_ball_off_table_is_foul(self, ball: str) -> bool:
        """American rule 9: no penalty for an object ball off the table."""
        return False

    def _restore_open(self, before: FrameState) -> bool:
        """American rule 6: after an illegal break-off, a new break-off."""
        return before.break_off

    def _variant_fouls(
        self, shot: Shot, first: list[str], potted: list[str]
    ) -> list[tuple[Foul, int]]:
        """American rules 6 and 7: balls to a cushion."""
        cushions = shot.cushion_after_contact
        if cushions is None or not first:
            return []
        if self.break_off:
            red_ok = "red" in cushions or "red" in potted
            if not (red_ok and "white" in cushions):
                return [(Foul.ILLEGAL_BREAK, SEVEN)]
            return []
        object_potted = any(b != "white" for b in potted)
        if not object_potted and not cushions:
            return [(Foul.NO_CUSHION, SEVEN)]
        return []
