"""International (amateur) snooker: the seed's section "Международный (Английский)
снукер (любительская версия)" (amateur rules 1-9 and its penalties)."""

from __future__ import annotations

import pytest

from calibration.table import AMATEUR
from rules import IllegalDecisionError
from tests.rules.helpers import decision, play, pot, safety, shot

START = {"type": "frame_start", "variant": "amateur"}


def amateur(*records):
    return play(START, *records)


def test_amateur_rules_1_4_5_table_baulk_line_and_d():
    frame = amateur().frame
    assert (frame.table.length_mm, frame.table.width_mm) == (3500.0, 1750.0)
    assert frame.table is AMATEUR
    # Baulk line 700 mm from the baulk cushion; the D's corners 292 mm either side.
    assert frame.table.spots["brown"] == (-1750.0 + 700.0, 0.0)
    assert frame.table.spots["yellow"] == (-1050.0, -292.0)


@pytest.mark.parametrize(
    ("records", "penalty"),
    [
        ([shot("pink", [])], 6),  # 2.2: value of the ball concerned
        ([shot("red", ["white"])], 4),  # 1.7: minimum four
        ([pot("red"), shot("red", [])], 7),  # 4.3: a red when a colour is on
        ([shot("red", [], referee_fouls=["wrong_cue_ball"])], 7),  # 4.4
        ([shot("red", [], referee_fouls=["ball_out_of_play_used"])], 7),  # 4.2
        ([pot("red"), shot(None, [])], 7),  # 4.1: foul before nominating
        # Not in the amateur list of seven-point fouls: the ball on's value, 4.
        ([shot("red", [], referee_fouls=["measuring"])], 4),
        ([shot("red", [], referee_fouls=["wrongly_spotted"])], 4),  # 2.4
        ([shot(["red", "black"], [])], 7),  # 3: two balls at once, the higher
    ],
)
def test_amateur_penalties(records, penalty):
    last = amateur(*records).frame.last
    assert last.penalty == penalty


def test_amateur_rule9_16_angled_cue_ball_next_player_plays_from_hand():
    state = amateur(safety(), shot("blue", []), decision("play_from_hand"))
    data = state.to_json()
    assert data["in_hand"] is True
    assert data["to_play"] == 0


def test_official_rules_have_no_play_from_hand():
    with pytest.raises(IllegalDecisionError):
        play(shot("blue", []), decision("play_from_hand"))


def test_amateur_rule9_20_miss_cue_ball_returned_and_replayed():
    state = amateur(
        pot("red"), pot("black"), shot("blue", [], miss=True), decision("restore")
    )
    data = state.to_json()
    assert data["to_play"] == 0
    assert data["ball_on"] == ["red"]
    assert data["scores"] == [8, 5]


def test_amateur_rule9_20_third_miss_does_not_lose_the_frame():
    miss = shot("blue", [], miss=True)
    state = amateur(miss, decision("restore"), miss, decision("restore"), miss)
    data = state.to_json()
    assert data["frame_over"] is False
    assert data["scores"] == [0, 15]


def test_amateur_rule9_21_free_ball_scores_the_ball_on():
    snooker = {"white": [-1600.0, 0.0], "brown": [-1050.0, 0.0], "red": [[1100.0, 0.0]]}
    state = amateur(
        shot("blue", [], positions=snooker),
        decision("play"),
        shot("green", ["green"], nominated="green"),
    )
    last = state.frame.last
    assert last.free_ball is True
    assert last.points == 1
    assert [r.ball for r in last.respotted] == ["green"]


def test_amateur_rule7_tie_on_the_last_black_respots_it():
    # One red. Player 0 fouls with a ball other than the white three times (4.4:
    # 7 each, 21 to player 1), put back in each time; then red, black, yellow to
    # pink (1+7+20 = 28) and a safety on the black; player 1 pots it: 28-28.
    foul = shot("red", [], referee_fouls=["wrong_cue_ball"])
    records = [foul, decision("play_again")] * 3
    records += [pot("red"), pot("black")]
    records += [pot(c) for c in ("yellow", "green", "brown", "blue", "pink")]
    records += [safety("black"), pot("black")]
    data = play({**START, "reds": 1}, *records).to_json()
    assert data["scores"] == [28, 28]
    assert data["respotted_black"] is True
    assert data["frame_over"] is False
    assert data["in_hand"] is True
