"""Foul reasons and their penalties (seed Part 3 rules 11 and 12)."""

from __future__ import annotations

from enum import StrEnum

from rules.records import RefereeFoul

MIN_PENALTY = 4
"""Seed Part 3 rule 12: every foul costs at least four points."""

SEVEN = 7
"""Seed Part 3 rule 12d: the seven-point fouls."""


class Foul(StrEnum):
    """Why a stroke was a foul; comments name the clause of Part 3 rule 12."""

    # a) value of the ball on
    STRUCK_TWICE = "struck_twice"  # a(i)
    FEET_OFF_FLOOR = "feet_off_floor"  # a(ii)
    OUT_OF_TURN = "out_of_turn"  # a(iii)
    NOT_FROM_D = "not_from_d"  # a(iv)
    NO_BALL_STRUCK = "no_ball_struck"  # a(v)
    CUE_BALL_POTTED = "cue_ball_potted"  # a(vi)
    SNOOKERED_WITH_FREE_BALL = "snookered_with_free_ball"  # a(vii)
    JUMP_SHOT = "jump_shot"  # a(viii)
    NON_STANDARD_CUE = "non_standard_cue"  # a(ix)
    CONFERRING = "conferring"  # a(x)
    # b) value of the ball on or of the ball concerned, whichever is higher
    BALLS_NOT_AT_REST = "balls_not_at_rest"  # b(i)
    BEFORE_RESPOT = "before_respot"  # b(ii)
    BALL_NOT_ON_POTTED = "ball_not_on_potted"  # b(iii)
    WRONG_BALL_FIRST = "wrong_ball_first"  # b(iv)
    PUSH_STROKE = "push_stroke"  # b(v)
    TOUCHED_BALL = "touched_ball"  # b(vi)
    BALL_OFF_TABLE = "ball_off_table"  # b(vii)
    WRONGLY_SPOTTED = "wrongly_spotted"  # amateur 2.4: a wrongly spotted ball
    # variants
    ILLEGAL_BREAK = "illegal_break"  # American snooker rule 6
    NO_CUSHION = "no_cushion"  # American rule 7, golf rule 8: no ball to a cushion
    WRONG_POCKET = "wrong_pocket"  # golf rule 9: the object ball in another pocket
    OPENING_SHORT = "opening_short"  # golf rule 6: the opening stroke short of the
    # top cushion
    # c) the higher of the two balls struck at once
    TWO_BALLS_AT_ONCE = "two_balls_at_once"  # c
    # d) seven points
    BALL_OUT_OF_PLAY_USED = "ball_out_of_play_used"  # d(i)
    MEASURING = "measuring"  # d(ii)
    RED_AFTER_RED = "red_after_red"  # d(iii)
    WRONG_CUE_BALL = "wrong_cue_ball"  # d(iv)
    WRONG_NOMINATION = "wrong_nomination"  # d(v)
    FOUL_BEFORE_NOMINATING = "foul_before_nominating"  # d(vi)


SEVEN_POINT_FOULS = frozenset(
    {
        Foul.BALL_OUT_OF_PLAY_USED,
        Foul.MEASURING,
        Foul.RED_AFTER_RED,
        Foul.WRONG_CUE_BALL,
        Foul.WRONG_NOMINATION,
        Foul.FOUL_BEFORE_NOMINATING,
    }
)

FROM_REFEREE: dict[RefereeFoul, Foul] = {f: Foul(f.value) for f in RefereeFoul}
"""Each referee-called foul is the engine foul of the same name."""
