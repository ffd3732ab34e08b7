"""American snooker, the seed's section "Американский снукер" (American rules 1-12)."""

from __future__ import annotations

import pytest

from rules import Foul, IllegalDecisionError, IllegalShotError
from tests.rules.helpers import decision, play, pot, shot

START = {"type": "frame_start", "variant": "american", "players": ["A", "B"]}
BREAK = shot("red", [], cushion_after_contact=["red", "white"])
"""A legal break-off: red first, a red and the cue ball to a cushion."""


def american(*records):
    return play(START, *records)


@pytest.mark.parametrize(
    ("cushions", "potted", "legal"),
    [
        (["red", "white"], [], True),
        (["white"], ["red"], True),  # a red potted instead of reaching a cushion
        (["red"], [], False),  # the cue ball must reach a cushion too
        (["white"], [], False),  # no red to a cushion, none potted
        ([], [], False),
    ],
)
def test_american_rule6_break_off(cushions, potted, legal):
    last = american(shot("red", potted, cushion_after_contact=cushions)).frame.last
    assert (Foul.ILLEGAL_BREAK in last.fouls) is not legal
    if not legal:
        assert last.penalty == 7


def test_american_rule6_break_off_must_strike_a_red_first():
    last = american(shot("blue", [], cushion_after_contact=["blue", "white"]))
    assert Foul.WRONG_BALL_FIRST in last.frame.last.fouls
    assert last.frame.last.penalty == 7


def test_american_rule6_illegal_break_opponent_may_have_it_played_again():
    bad = shot("red", [], cushion_after_contact=[])
    state = american(bad, decision("restore"))
    data = state.to_json()
    assert data["scores"] == [0, 7]
    assert data["to_play"] == 0
    assert data["in_hand"] is True
    # The re-break is a break-off again.
    assert american(bad, decision("restore"), bad).frame.last.fouls == (
        Foul.ILLEGAL_BREAK,
    )


def test_american_rule6_or_accept_the_position():
    data = american(shot("red", [], cushion_after_contact=[]), decision("play"))
    assert data.to_json()["to_play"] == 1


def test_american_rule7_after_contact_a_pot_or_a_cushion():
    after_break = [BREAK]
    last = american(*after_break, shot("red", [], cushion_after_contact=[]))
    assert last.frame.last.fouls == (Foul.NO_CUSHION,)
    assert last.to_json()["scores"] == [7, 0]
    ok = american(*after_break, shot("red", [], cushion_after_contact=["red"]))
    assert ok.frame.last.fouls == ()
    potted = american(*after_break, shot("red", ["red"], cushion_after_contact=[]))
    assert potted.frame.last.fouls == ()
    assert potted.frame.last.points == 1


def test_american_rule7_without_cushion_data_the_stroke_is_not_judged_on_it():
    assert american(BREAK, shot("red", [])).frame.last.fouls == ()


@pytest.mark.parametrize(
    ("records", "foul"),
    [
        ([shot("pink", [], cushion_after_contact=["pink"])], Foul.WRONG_BALL_FIRST),
        ([shot("red", ["pink"], cushion_after_contact=[])], Foul.BALL_NOT_ON_POTTED),
        (
            [pot("red"), shot("blue", ["blue", "pink"], nominated="blue")],
            Foul.BALL_NOT_ON_POTTED,
        ),
        ([pot("red"), shot("pink", [], nominated="blue")], Foul.WRONG_BALL_FIRST),
        ([shot("red", [], referee_fouls=["jump_shot"])], Foul.JUMP_SHOT),
    ],
)
def test_american_rule7_fouls_cost_seven(records, foul):
    last = american(BREAK, *records).frame.last
    assert foul in last.fouls
    assert last.penalty == 7  # rule 12


def test_american_rule9_object_ball_off_the_table_is_no_foul():
    state = american(BREAK, pot("red"), pot("black", off_table=["red", "pink"]))
    last = state.frame.last
    assert last.fouls == ()
    assert last.points == 7
    data = state.to_json()
    assert data["on_table"]["red"] == 13  # reds stay off
    assert data["on_table"]["pink"] == 1  # colours are re-spotted
    assert {r.ball for r in last.respotted} == {"black", "pink"}


def test_american_rule11_cue_ball_potted_next_player_in_hand():
    # A breaks off; B goes in-off: seven to A, who plays from the D.
    state = american(BREAK, shot("red", ["white"]))
    data = state.to_json()
    assert data["in_hand"] is True
    assert data["to_play"] == 0
    assert data["scores"] == [7, 0]


def test_american_rule12_choices_and_no_free_ball_or_miss():
    foul = shot("blue", [], cushion_after_contact=["blue"], miss=True)
    state = american(BREAK, foul, decision("play_again"))
    assert state.to_json()["to_play"] == 1
    with pytest.raises(IllegalDecisionError):
        american(BREAK, foul, decision("restore"))


def test_american_rule1_two_players():
    with pytest.raises(IllegalShotError) as error:
        play({**START, "players": ["A", "B", "C", "D"]})
    assert error.value.field == "players"
