"""Seed Part 3 rule 10: snookered after a foul, the free ball.

The snooker is decided from the logged ``positions`` by the sight-line test of Part 2
rule 16. In these layouts the blocking ball lies on the straight line between the
cue ball and the ball on (or wholly clear of it), so the answer does not depend on
how close a tangent is.
"""

from __future__ import annotations

import pytest

from rules import Foul
from tests.rules.helpers import (
    SPOTS,
    after_last_red,
    clearance_to,
    decision,
    last,
    layout,
    play,
    pot,
    safety,
    shot,
    start,
)

YELLOW = SPOTS["yellow"]
WHITE = (YELLOW[0] + 500.0, YELLOW[1])
BLUE_BETWEEN = (YELLOW[0] + 250.0, YELLOW[1])
YELLOW_HIDDEN = layout(WHITE, blue=BLUE_BETWEEN)
"""Clearance, yellow on its spot; the blue on the line to it: snookered."""
YELLOW_IN_VIEW = layout(WHITE, blue=(BLUE_BETWEEN[0], BLUE_BETWEEN[1] + 200.0))
"""The blue 200 mm aside: both edges of the yellow in view."""

CLEARANCE_FOUL = (
    *after_last_red(),
    safety("yellow"),
    shot(None, positions=YELLOW_HIDDEN),
)
"""Player 0 scores 8 then plays safe; player 1 misses everything (4 to player 0),
leaving the yellow hidden behind the blue: a free ball for player 0."""

RED_WHITE = (0.0, -400.0)
REDS_HIDDEN = layout(
    RED_WHITE,
    reds=[(0.0, 400.0), (800.0, -400.0)],
    blue=(0.0, 0.0),
    pink=(400.0, -400.0),
)
"""Two reds: one behind the blue, one behind the pink."""

RED_FOUL = (start(reds=2), safety("red"), shot(None, positions=REDS_HIDDEN))
"""Player 1 misses everything with a red on (4 to player 0) leaving the reds hidden."""


def test_part3_rule10_free_ball_called_when_snookered_after_a_foul():
    data = play(*CLEARANCE_FOUL).to_json()
    assert data["scores"] == [12, 0]
    assert data["to_play"] == 0
    assert data["awaiting_decision"] is True
    assert data["free_ball"] is True
    assert data["free_ball_awarded"] is True


def test_part3_rule10_no_free_ball_when_not_snookered():
    records = (
        *after_last_red(),
        safety("yellow"),
        shot(None, positions=YELLOW_IN_VIEW),
    )
    data = play(*records).to_json()
    assert data["free_ball"] is False
    assert data["free_ball_awarded"] is False


def test_part3_rule10_no_free_ball_after_a_legal_snooker():
    # A snooker left by a legal stroke is no foul: no free ball.
    records = (*after_last_red(), safety("yellow", positions=YELLOW_HIDDEN))
    assert play(*records).to_json()["free_ball"] is False


def test_part3_rule10_a_c_free_ball_potted_scores_the_ball_on_and_is_respotted():
    state = play(*CLEARANCE_FOUL, decision("play"), pot("blue"))
    result = state.frame.shots[-1]
    data = state.to_json()
    assert result.free_ball is True
    assert result.fouls == ()
    assert result.points == 2  # the yellow's value
    assert [r.ball for r in result.respotted] == ["blue"]
    assert data["on_table"]["blue"] == 1
    assert data["on_table"]["yellow"] == 1
    assert data["ball_on"] == ["yellow"]  # rule 3f(iii): the yellow is still on
    assert data["scores"] == [14, 0]
    assert data["current_break"] == 2
    assert data["free_ball"] is False  # the free ball is for one stroke


def test_part3_rule10_c_free_ball_scores_the_value_of_the_ball_on_pink():
    # Pink on, hidden behind the black on the centre line; black as the free ball.
    hidden = layout((300.0, 0.0), colours=("pink", "black"), black=(600.0, 0.0))
    records = (*clearance_to("pink"), safety("pink"), shot(None, positions=hidden))
    state = play(*records, decision("play"), pot("black"))
    result = state.frame.shots[-1]
    assert result.points == 6
    assert state.to_json()["on_table"]["black"] == 1
    assert state.to_json()["ball_on"] == ["pink"]


def test_part3_rule10_a_ii_free_ball_as_a_red_then_a_colour():
    # Rule 3e/3f(i): a free ball nominated as a red scores 1, then a colour is on.
    state = play(*RED_FOUL, decision("play"), pot("black"))
    data = state.to_json()
    assert data["scores"] == [4 + 1, 0]
    assert data["on_table"] == {
        "red": 2,
        "yellow": 1,
        "green": 1,
        "brown": 1,
        "blue": 1,
        "pink": 1,
        "black": 1,
    }
    assert data["ball_on"] == ["yellow", "green", "brown", "blue", "pink", "black"]
    state = play(*RED_FOUL, decision("play"), pot("black"), pot("pink"))
    assert state.to_json()["scores"] == [4 + 1 + 6, 0]
    assert state.to_json()["ball_on"] == ["red"]


def test_part3_rule10_a_free_ball_as_a_red_then_a_red_is_seven_points():
    # Rule 12d(iii): a red after a free ball nominated as a red.
    state = play(*RED_FOUL, decision("play"), pot("black"), shot("red", []))
    result = state.frame.shots[-1]
    assert Foul.RED_AFTER_RED in result.fouls
    assert result.penalty == 7


def test_part3_rule10_b_i_foul_if_the_nominated_free_ball_is_not_struck_first():
    state = play(
        *CLEARANCE_FOUL, decision("play"), shot("yellow", [], nominated="blue")
    )
    result = state.frame.shots[-1]
    assert Foul.WRONG_BALL_FIRST in result.fouls
    assert result.penalty == 4
    assert state.to_json()["scores"] == [12, 4]


def test_part3_rule10_b_i_free_ball_and_ball_on_struck_at_once_is_legal():
    stroke = shot(["blue", "yellow"], ["yellow"], nominated="blue")
    state = play(*CLEARANCE_FOUL, decision("play"), stroke)
    result = state.frame.shots[-1]
    assert result.fouls == ()
    # Rule 10d: the ball on is scored and stays off the table.
    assert result.points == 2
    assert state.to_json()["on_table"]["yellow"] == 0
    assert state.to_json()["ball_on"] == ["green"]


def test_part3_rule6_free_ball_and_red_struck_at_once_is_legal():
    stroke = shot(["black", "red"], ["red"], nominated="black")
    state = play(*RED_FOUL, decision("play"), stroke)
    result = state.frame.shots[-1]
    assert result.fouls == ()
    assert result.points == 1
    assert state.to_json()["on_table"]["red"] == 1


def test_part3_rule10_b_ii_foul_to_snooker_with_the_free_ball():
    # The blue nominated and played; nothing potted; the cue ball ends with the blue
    # between it and the yellow: the next player is snookered by the free ball.
    stroke = shot("blue", [], nominated="blue", positions=YELLOW_HIDDEN)
    state = play(*CLEARANCE_FOUL, decision("play"), stroke)
    result = state.frame.shots[-1]
    assert Foul.SNOOKERED_WITH_FREE_BALL in result.fouls
    # Rule 12a(vii): value of the ball on (yellow, 2), at least 4.
    assert result.penalty == 4
    assert state.to_json()["scores"] == [12, 4]


def test_part3_rule10_b_ii_no_foul_when_the_free_ball_does_not_snooker():
    stroke = shot("blue", [], nominated="blue", positions=YELLOW_IN_VIEW)
    state = play(*CLEARANCE_FOUL, decision("play"), stroke)
    assert state.frame.shots[-1].fouls == ()
    assert state.to_json()["to_play"] == 1


def test_part3_rule10_b_ii_except_when_only_pink_and_black_remain():
    hidden = layout((300.0, 0.0), colours=("pink", "black"), black=(600.0, 0.0))
    records = (*clearance_to("pink"), safety("pink"), shot(None, positions=hidden))
    assert play(*records).to_json()["free_ball"] is True
    stroke = shot("black", [], nominated="black", positions=hidden)
    state = play(*records, decision("play"), stroke)
    assert state.frame.shots[-1].fouls == ()


def test_part3_rule10_b_ii_and_part2_rule16b_the_nearest_ball_snookers():
    # Both reds behind the blue: the blue (the free ball) is the effective snooker.
    both_behind_blue = layout(RED_WHITE, reds=[(0.0, 400.0), (0.0, 500.0)])
    both_behind_blue["blue"] = [0.0, 0.0]
    stroke = shot("blue", [], nominated="blue", positions=both_behind_blue)
    state = play(*RED_FOUL, decision("play"), stroke)
    result = state.frame.shots[-1]
    assert Foul.SNOOKERED_WITH_FREE_BALL in result.fouls
    assert result.penalty == 4


def test_part3_rule10_b_ii_and_part2_rule16c_reds_hidden_by_different_balls():
    # One red behind the blue (the free ball), one behind the pink: no effective
    # snookering ball, so the free ball does not snooker: no foul.
    stroke = shot("blue", [], nominated="blue", positions=REDS_HIDDEN)
    state = play(*RED_FOUL, decision("play"), stroke)
    assert state.frame.shots[-1].fouls == ()


def test_part3_rule10_d_ball_on_potted_after_striking_the_free_ball_first():
    stroke = shot("blue", ["yellow"], nominated="blue")
    state = play(*CLEARANCE_FOUL, decision("play"), stroke)
    assert state.frame.shots[-1].points == 2
    assert state.to_json()["on_table"]["yellow"] == 0
    assert state.to_json()["on_table"]["blue"] == 1


def test_part3_rule10_e_free_ball_and_ball_on_potted_only_the_ball_on_counts():
    stroke = shot("blue", ["blue", "yellow"], nominated="blue")
    state = play(*CLEARANCE_FOUL, decision("play"), stroke)
    result = state.frame.shots[-1]
    data = state.to_json()
    assert result.fouls == ()
    assert result.points == 2
    assert data["on_table"]["blue"] == 1  # the free ball is spotted
    assert data["on_table"]["yellow"] == 0  # the ball on stays off
    assert data["ball_on"] == ["green"]


def test_part3_rule10_e_with_a_red_on_each_ball_potted_counts():
    stroke = shot("black", ["black", "red"], nominated="black")
    state = play(*RED_FOUL, decision("play"), stroke)
    data = state.to_json()
    assert state.frame.shots[-1].points == 2
    assert data["on_table"]["black"] == 1
    assert data["on_table"]["red"] == 1
    assert data["scores"] == [4 + 2, 0]


def test_part3_rule10_f_free_ball_cancelled_when_the_offender_plays_again():
    state = play(*CLEARANCE_FOUL, decision("play_again"))
    data = state.to_json()
    assert data["to_play"] == 1
    assert data["free_ball"] is False
    # The offender cannot take a free ball: the blue first is a foul (12b(iv)).
    state = play(*CLEARANCE_FOUL, decision("play_again"), pot("blue"))
    result = state.frame.shots[-1]
    assert Foul.WRONG_BALL_FIRST in result.fouls
    assert result.penalty == 5


def test_part3_rule10_free_ball_raises_the_points_remaining():
    # Yellow on with a free ball: the free ball (2) and then 2+3+4+5+6+7.
    assert play(*CLEARANCE_FOUL).to_json()["points_remaining"] == 27
    state = play(*CLEARANCE_FOUL, decision("play"))
    assert state.to_json()["points_remaining"] == 2 + 27


@pytest.mark.parametrize("choice", [None, "play"])
def test_part3_rule10_free_ball_without_positions_taken_from_the_nomination(choice):
    # Contract: without positions, a ball not on nominated after a foul is the free
    # ball the referee called.
    records = (*after_last_red(), safety("yellow"), shot(None))
    if choice:
        records += (decision(choice),)
    state = play(*records, pot("blue"))
    result = state.frame.shots[-1]
    assert result.free_ball is True
    assert result.points == 2


def test_part3_rule10_a_i_free_ball_unnominated_first_colour_struck():
    # Contract: with no nomination, the one colour struck first is the free ball.
    state = play(*CLEARANCE_FOUL, decision("play"), shot("pink", ["pink"]))
    result = state.frame.shots[-1]
    assert result.free_ball is True
    assert result.fouls == ()
    assert result.points == 2
    assert state.to_json()["on_table"]["pink"] == 1


def test_part3_rule10_a_free_ball_player_may_still_play_the_ball_on():
    state = play(*CLEARANCE_FOUL, decision("play"), pot("yellow"))
    result = state.frame.shots[-1]
    assert result.fouls == ()
    assert result.points == 2
    assert state.to_json()["on_table"]["yellow"] == 0


def test_part3_rule10_unnominated_free_ball_struck_with_the_ball_on_is_legal():
    # Rule 6: the free ball and the ball on may be struck at once; unnominated, the
    # one ball not on struck with the red is taken as the free ball.
    snooker = layout(white=(-1600.0, 0.0), reds=[(1100.0, 0.0)])
    result = last(
        shot("blue", [], positions=snooker),
        decision("play"),
        shot(["red", "brown"], ["red"]),
    )
    assert result.fouls == ()
    assert result.free_ball is True
    assert result.points == 1
