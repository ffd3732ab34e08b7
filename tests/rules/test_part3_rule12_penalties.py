"""Seed Part 3 rules 11 and 12: fouls and their penalties.

Every foul costs at least four points (rule 12); the clauses a) to d) give more.
Expected penalties are computed from the seed's values (Part 1 rule 2).
"""

from __future__ import annotations

import pytest

from rules import Foul, IllegalDecisionError, parse_record
from tests.rules.helpers import (
    clearance_to,
    decision,
    frame,
    last,
    play,
    pot,
    safety,
    shot,
)

# The records that put a ball on, and that ball.
RED_ON: tuple = ((), "red")
PINK_ON: tuple = (clearance_to("pink"), "pink")
BLUE_ON: tuple = (clearance_to("blue"), "blue")
BLACK_NOMINATED: tuple = ((pot("red"),), "black")  # a colour after a red

# --- rule 12a: the value of the ball on ---------------------------------------------

A_CLASS_REFEREE = [
    ("struck_twice", Foul.STRUCK_TWICE),  # a(i)
    ("feet_off_floor", Foul.FEET_OFF_FLOOR),  # a(ii)
    ("out_of_turn", Foul.OUT_OF_TURN),  # a(iii)
    ("not_from_d", Foul.NOT_FROM_D),  # a(iv)
    ("jump_shot", Foul.JUMP_SHOT),  # a(viii)
    ("non_standard_cue", Foul.NON_STANDARD_CUE),  # a(ix)
    ("conferring", Foul.CONFERRING),  # a(x)
]


@pytest.mark.parametrize(("called", "foul"), A_CLASS_REFEREE)
@pytest.mark.parametrize(
    ("setup", "ball_on", "penalty"),
    [
        ((), "red", 4),
        (clearance_to("blue"), "blue", 5),
        (clearance_to("pink"), "pink", 6),
    ],
    ids=["red-on", "blue-on", "pink-on"],
)
def test_part3_rule12_a_value_of_the_ball_on(called, foul, setup, ball_on, penalty):
    result = last(*setup, shot(ball_on, [], referee_fouls=[called]))
    assert foul in result.fouls
    assert result.penalty == penalty


def test_part3_rule12_a_iii_out_of_turn_with_a_ball_named_is_still_the_ball_on():
    # Rule 12a has no "ball concerned": a ball named with the foul does not count.
    called = [{"foul": "struck_twice", "ball": "black"}]
    result = last(shot("red", [], referee_fouls=called))
    assert result.penalty == 4


@pytest.mark.parametrize(
    ("setup", "penalty"),
    [((), 4), (clearance_to("blue"), 5), (clearance_to("pink"), 6)],
    ids=["red-on", "blue-on", "pink-on"],
)
def test_part3_rule12_a_v_failing_to_hit_any_ball(setup, penalty):
    result = last(*setup, shot(None))
    assert result.fouls == (Foul.NO_BALL_STRUCK,)
    assert result.penalty == penalty


@pytest.mark.parametrize(
    ("setup", "ball_on", "penalty"),
    [
        ((), "red", 4),
        (clearance_to("blue"), "blue", 5),
        (clearance_to("pink"), "pink", 6),
    ],
    ids=["red-on", "blue-on", "pink-on"],
)
def test_part3_rule12_a_vi_cue_ball_potted(setup, ball_on, penalty):
    result = last(*setup, shot(ball_on, ["white"]))
    assert result.fouls == (Foul.CUE_BALL_POTTED,)
    assert result.penalty == penalty


def test_part3_rule12_a_vi_cue_ball_potted_with_the_ball_on():
    # The red is not scored (rule 11e) and stays off (rule 3g).
    state = play(shot("red", ["red", "white"]))
    data = state.to_json()
    assert data["scores"] == [0, 4]
    assert data["on_table"]["red"] == 14
    assert data["in_hand"] is True


# --- rule 12b: the ball on or the ball concerned, whichever is higher ----------------


@pytest.mark.parametrize(
    ("setup", "potted", "penalty"),
    [
        (RED_ON, "yellow", 4),  # max(1, 2) below the minimum
        (RED_ON, "brown", 4),
        (RED_ON, "blue", 5),
        (RED_ON, "pink", 6),
        (RED_ON, "black", 7),
        (BLUE_ON, "pink", 6),  # clearance: blue on, pink potted
        (PINK_ON, "black", 7),
    ],
)
def test_part3_rule12_b_iii_potting_ball_not_on(setup, potted, penalty):
    records, ball_on = setup
    result = last(*records, shot(ball_on, [ball_on, potted]))
    assert Foul.BALL_NOT_ON_POTTED in result.fouls
    assert result.penalty == penalty
    assert result.points == 0


def test_part3_rule12_b_iii_ball_not_on_potted_after_a_red():
    # Black nominated and struck; the black and a red go in: 7, nothing scored, the
    # red stays off (rule 3g), the black is spotted (rule 7).
    state = play(pot("red"), shot("black", ["black", "red"], nominated="black"))
    data = state.to_json()
    assert data["scores"] == [1, 7]
    assert data["on_table"]["red"] == 13
    assert data["on_table"]["black"] == 1
    assert Foul.BALL_NOT_ON_POTTED in state.frame.shots[-1].fouls


def test_part3_rule12_b_iii_colour_potted_out_of_order_in_the_clearance():
    # Yellow on; the green goes in off the yellow: foul, max(2, 3) -> 4, and the
    # green is spotted again (rule 7), the yellow still on.
    state = play(*clearance_to("yellow"), shot("yellow", ["green"]))
    data = state.to_json()
    assert data["scores"] == [8, 4]
    assert data["on_table"]["green"] == 1
    assert data["ball_on"] == ["yellow"]


@pytest.mark.parametrize(
    ("setup", "first", "penalty"),
    [
        (RED_ON, "yellow", 4),
        (RED_ON, "green", 4),
        (RED_ON, "blue", 5),
        (RED_ON, "pink", 6),
        (RED_ON, "black", 7),
        (BLUE_ON, "black", 7),
        (BLUE_ON, "pink", 6),
        (PINK_ON, "black", 7),
        (BLACK_NOMINATED, "yellow", 7),  # ball on (nominated black) is higher
    ],
)
def test_part3_rule12_b_iv_striking_ball_not_on_first(setup, first, penalty):
    records, ball_on = setup
    nominated = {"nominated": ball_on} if setup is BLACK_NOMINATED else {}
    result = last(*records, shot(first, [], **nominated))
    assert Foul.WRONG_BALL_FIRST in result.fouls
    assert result.penalty == penalty


def test_part3_rule12_b_iv_lower_ball_struck_the_ball_on_counts():
    # Pink nominated after a red; the blue is struck first: max(6, 5) = 6.
    result = last(pot("red"), shot("blue", [], nominated="pink"))
    assert result.fouls == (Foul.WRONG_BALL_FIRST,)
    assert result.penalty == 6


B_CLASS_REFEREE = [
    ("balls_not_at_rest", Foul.BALLS_NOT_AT_REST),  # b(i)
    ("before_respot", Foul.BEFORE_RESPOT),  # b(ii)
    ("push_stroke", Foul.PUSH_STROKE),  # b(v)
    ("touched_ball", Foul.TOUCHED_BALL),  # b(vi)
]


@pytest.mark.parametrize(("called", "foul"), B_CLASS_REFEREE)
@pytest.mark.parametrize(
    ("setup", "ball_on", "concerned", "penalty"),
    [
        ((), "red", None, 4),
        ((), "red", "blue", 5),
        ((), "red", "black", 7),
        (clearance_to("pink"), "pink", "yellow", 6),
        (clearance_to("pink"), "pink", "black", 7),
    ],
)
def test_part3_rule12_b_referee_fouls_ball_on_or_ball_concerned(
    called, foul, setup, ball_on, concerned, penalty
):
    item = called if concerned is None else {"foul": called, "ball": concerned}
    result = last(*setup, shot(ball_on, [], referee_fouls=[item]))
    assert foul in result.fouls
    assert result.penalty == penalty


@pytest.mark.parametrize(
    ("off", "penalty"),
    [("red", 4), ("white", 4), ("yellow", 4), ("blue", 5), ("black", 7)],
)
def test_part3_rule12_b_vii_forcing_a_ball_off_the_table(off, penalty):
    result = last(shot("red", [], off_table=[off]))
    assert Foul.BALL_OFF_TABLE in result.fouls
    assert result.penalty == penalty


def test_part3_rule12_b_vii_colour_forced_off_is_spotted_red_is_not():
    state = play(shot("red", [], off_table=["red", "pink"]))
    data = state.to_json()
    assert data["on_table"]["red"] == 14
    assert data["on_table"]["pink"] == 1
    assert data["scores"] == [0, 6]


# --- rule 12c: two balls struck at once (rule 6) --------------------------------------


@pytest.mark.parametrize(
    ("setup", "first", "nominated", "penalty"),
    [
        ((), ["red", "black"], None, 7),
        ((), ["red", "yellow"], None, 4),
        ((), ["red", "blue"], None, 5),
        ((pot("red"),), ["green", "yellow"], "green", 4),
        ((pot("red"),), ["blue", "pink"], "blue", 6),
        ((pot("red"),), ["black", "pink"], "black", 7),
        (clearance_to("pink"), ["pink", "black"], None, 7),
        (clearance_to("blue"), ["blue", "pink"], None, 6),
    ],
)
def test_part3_rule12_c_two_balls_struck_at_once(setup, first, nominated, penalty):
    fields = {"nominated": nominated} if nominated else {}
    result = last(*setup, shot(first, [], **fields))
    assert Foul.TWO_BALLS_AT_ONCE in result.fouls
    assert result.penalty == penalty


def test_part3_rule12_c_two_reds_at_once_is_no_foul():
    # Rule 6: two reds may be struck at once; both potted score one each (rule 3e).
    result = last(shot(["red", "red"], ["red", "red"]))
    assert result.fouls == ()
    assert result.points == 2


# --- rule 12d: seven points -----------------------------------------------------------

SEVEN_REFEREE = [
    ("ball_out_of_play_used", Foul.BALL_OUT_OF_PLAY_USED),  # d(i)
    ("measuring", Foul.MEASURING),  # d(ii)
    ("wrong_cue_ball", Foul.WRONG_CUE_BALL),  # d(iv)
    ("wrong_nomination", Foul.WRONG_NOMINATION),  # d(v)
]


@pytest.mark.parametrize(("called", "foul"), SEVEN_REFEREE)
@pytest.mark.parametrize(
    ("setup", "ball_on"),
    [((), "red"), (clearance_to("yellow"), "yellow")],
    ids=["red-on", "yellow-on"],
)
def test_part3_rule12_d_seven_point_referee_fouls(called, foul, setup, ball_on):
    result = last(*setup, shot(ball_on, [], referee_fouls=[called]))
    assert foul in result.fouls
    assert result.penalty == 7


@pytest.mark.parametrize(
    "stroke",
    [
        shot("red", [], nominated="black"),
        shot("red", ["red"], nominated="black"),
        shot(["red", "red"], []),
    ],
    ids=["red-struck", "red-potted", "two-reds"],
)
def test_part3_rule12_d_iii_playing_reds_in_successive_strokes(stroke):
    result = last(pot("red"), stroke)
    assert Foul.RED_AFTER_RED in result.fouls
    assert result.penalty == 7
    assert result.points == 0


def test_part3_rule12_d_vi_foul_after_a_red_before_nominating_a_colour():
    # A red potted, then no ball struck with no colour nominated: 7, not 4.
    result = last(pot("red"), shot(None))
    assert Foul.FOUL_BEFORE_NOMINATING in result.fouls
    assert result.penalty == 7


def test_part3_rule12_d_vi_does_not_apply_once_a_colour_is_nominated():
    # Yellow nominated, then the cue ball missed everything: value of the ball on
    # (2), raised to the minimum of 4.
    result = last(pot("red"), shot(None, nominated="yellow"))
    assert result.fouls == (Foul.NO_BALL_STRUCK,)
    assert result.penalty == 4


# --- rule 12: minimum four; rule 11g: several fouls, the highest penalty ------------


def test_part3_rule12_minimum_penalty_is_four():
    # Yellow on, cue ball in-off: value of the yellow is 2, the penalty 4.
    result = last(*clearance_to("yellow"), shot("yellow", ["white"]))
    assert result.penalty == 4


@pytest.mark.parametrize(
    ("stroke", "penalty"),
    [
        (shot("pink", ["white"]), 6),  # wrong ball first 6, in-off 4
        (shot("red", ["white"], off_table=["black"]), 7),  # in-off 4, black off 7
        (shot(None, ["white"], referee_fouls=["measuring"]), 7),
        (shot("blue", ["pink", "white"]), 6),  # blue first 5, pink potted 6
    ],
)
def test_part3_rule11_g_several_fouls_in_one_stroke_the_highest_penalty(
    stroke, penalty
):
    result = last(stroke)
    assert len(result.fouls) >= 2
    assert result.penalty == penalty
    assert play(stroke).to_json()["scores"] == [0, penalty]


# --- rule 11: consequences of a foul ------------------------------------------------


def test_part3_rule11_e_points_of_the_break_before_the_foul_stand():
    state = play(pot("red"), pot("black"), pot("red"), shot("blue", ["blue", "white"]))
    data = state.to_json()
    # 1 + 7 + 1 before the foul; the blue is not scored, 5 to the opponent.
    assert data["scores"] == [9, 5]
    assert data["highest_break"] == [9, 0]
    assert data["on_table"]["blue"] == 1
    assert state.frame.shots[-1].points == 0


def test_part3_rule11_f_next_stroke_from_where_the_cue_ball_came_to_rest():
    data = play(shot("pink", [])).to_json()
    assert data["to_play"] == 1
    assert data["in_hand"] is False
    assert data["awaiting_decision"] is True


@pytest.mark.parametrize(("choice", "to_play"), [("play", 1), ("play_again", 0)])
def test_part3_rule11_h_ii_the_next_player_chooses_who_plays(choice, to_play):
    data = play(shot("pink", []), decision(choice)).to_json()
    assert data["to_play"] == to_play
    assert data["awaiting_decision"] is False
    assert data["scores"] == [0, 6]


def test_part3_rule11_h_ii_offender_plays_again_from_hand_after_an_in_off():
    data = play(shot("red", ["white"]), decision("play_again")).to_json()
    assert data["to_play"] == 0
    assert data["in_hand"] is True


def test_part3_rule13_b_offender_asked_to_play_again_scores_his_pots():
    state = play(shot("pink", []), decision("play_again"), pot("red"), pot("pink"))
    data = state.to_json()
    assert data["scores"] == [7, 6]
    assert data["current_break"] == 7
    assert data["to_play"] == 0


def test_part3_rule13_a_offender_may_change_the_ball_he_plays():
    # After a red and a foul, the next player asks the offender to play again: a
    # red is now on (rule 3e; the visit began afresh), not the colour.
    state = play(pot("red"), shot("black", ["white"]), decision("play_again"))
    assert state.to_json()["ball_on"] == ["red"]
    assert frame(pot("red"), shot("black", ["white"])).scores == (1, 7)


def test_part3_rule11_decision_without_a_foul_is_refused():
    state = play(safety("red"))
    with pytest.raises(IllegalDecisionError) as error:
        state.push(parse_record(decision("play")))
    assert error.value.field == "choice"


def test_part3_rule13_play_again_cannot_be_withdrawn():
    state = play(shot("pink", []), decision("play_again"))
    with pytest.raises(IllegalDecisionError) as error:
        state.push(parse_record(decision("play")))
    assert error.value.field == "choice"
