"""Seed Part 4, the players: the frame awarded (rules 1 to 3) and the concession
(rule 6).

The referee's award of a frame (time wasting after a warning, rule 1; refusing to
continue or misconduct, rule 2) is the log's ``forfeit`` record, scored by rule 3a.
Rule 6b (a concession when aggregate points count) is cut off in the seed and
concerns aggregate scoring, which the ``wpbsa`` variant does not use.
"""

from __future__ import annotations

import pytest

from rules import IllegalShotError, RulesError, parse_record
from tests.rules.helpers import (
    clearance_to,
    concede,
    decision,
    play,
    pot,
    safety,
    shot,
    start,
)


def test_part4_rule6_a_the_striker_concedes_the_frame_to_the_opponent():
    data = play(concede()).to_json()
    assert data["frame_over"] is True
    assert data["conceded"] is True
    assert data["winner"] == 1
    assert data["frames_won"] == [0, 1]


def test_part4_rule6_a_concession_wins_whatever_the_score():
    # Part 3 rule 1f(ii): the frame goes to the player it was conceded to, even
    # from behind: player 0 leads 28 to 0 and concedes.
    data = play(*clearance_to("black"), concede()).to_json()
    assert data["scores"] == [28, 0]
    assert data["winner"] == 1
    assert data["frames_won"] == [0, 1]


def test_part4_rule6_a_concession_by_the_player_to_play_after_a_foul():
    # Player 0 fouls; player 1, now to play, concedes instead of deciding.
    data = play(shot("pink", []), concede()).to_json()
    assert data["scores"] == [0, 6]
    assert data["winner"] == 0


def test_part4_rule6_a_concession_after_the_turn_passed():
    data = play(pot("red"), pot("black"), safety("red"), concede()).to_json()
    assert data["winner"] == 0
    assert data["highest_break"] == [8, 0]


def test_part4_rule6_a_no_concession_once_the_frame_is_over():
    state = play(*clearance_to("black"), pot("black"))
    with pytest.raises(IllegalShotError) as error:
        state.push(parse_record(concede()))
    assert error.value.field == "type"


def test_part4_rule6_a_conceded_frame_counts_and_the_match_goes_on():
    records = (start(players=["A", "B"]), concede(), start(), concede(), start())
    data = play(*records).to_json()
    # Frame 1: A breaks and concedes; frame 2: B breaks (Part 3 rule 3b) and
    # concedes; frame 3 starts with A to break.
    assert data["frames_won"] == [1, 1]
    assert data["frame_number"] == 3
    assert data["to_play"] == 0
    assert data["conceded"] is False


def test_part4_rule6_a_concession_while_a_decision_is_pending_after_a_miss():
    state = play(safety("red"), shot(None, miss=True), concede())
    assert state.to_json()["winner"] == 1
    with pytest.raises(RulesError):
        state.push(parse_record(decision("restore")))


def forfeit(player: int) -> dict:
    return {"type": "forfeit", "player": player}


def test_part4_rule3_a_offender_loses_frame_and_points_opponent_gets_balls_left():
    # Player 0 pots red (1) and black (7), then forfeits: his 8 points are lost and
    # player 1 receives 14 reds x 8 + 27 for the colours = 139.
    data = play(pot("red"), pot("black"), forfeit(0)).to_json()
    assert data["scores"] == [0, 139]
    assert data["frame_over"] is True
    assert data["winner"] == 1
    assert data["frames_won"] == [0, 1]


def test_part4_rule3_a_in_the_clearance_only_the_colours_left_count():
    # A one-red frame cleared down to the black (player 0: 1+7+2+3+4+5+6 = 28);
    # player 0 forfeits: he loses his 28, player 1 receives the black's 7.
    state = play(*clearance_to("black"), forfeit(0))
    data = state.to_json()
    assert data["scores"][0] == 0
    assert data["scores"][1] == 7
    assert data["winner"] == 1


def test_part4_rule3_a_the_non_striker_can_forfeit_too():
    data = play(pot("red"), forfeit(1)).to_json()
    assert data["scores"] == [1 + 14 * 8 + 27, 0]
    assert data["winner"] == 0


def test_part2_rule1_b_claim_with_black_alone_and_lead_over_seven():
    state = play(*clearance_to("black"), {"type": "claim"})
    data = state.to_json()
    assert data["frame_over"] is True
    assert data["winner"] == 0


@pytest.mark.parametrize("records", [[pot("red")], []])
def test_part2_rule1_b_no_claim_before_the_black_is_alone(records):
    with pytest.raises(IllegalShotError) as error:
        play(*records, {"type": "claim"})
    assert error.value.field == "type"


def test_forfeit_names_a_player():
    with pytest.raises(RulesError) as error:
        parse_record({"type": "forfeit"})
    assert error.value.field == "player"
