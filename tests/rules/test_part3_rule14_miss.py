"""Seed Part 3 rule 14: foul and a miss, the restored position, the third failure.

The miss itself is the referee's call (``miss`` in the log). The engine decides from
``positions`` whether the cue ball had a clear path to hit a ball on full in the face
(rule 14c), which makes the third failure lose the frame.
"""

from __future__ import annotations

import pytest

from rules import IllegalDecisionError, parse_record
from tests.rules.helpers import (
    SPOTS,
    after_last_red,
    decision,
    layout,
    play,
    pot,
    safety,
    shot,
)

YELLOW = SPOTS["yellow"]
WHITE = (YELLOW[0] + 500.0, YELLOW[1])
BLUE_ASIDE = (YELLOW[0] + 250.0, YELLOW[1] + 200.0)

IN_VIEW = layout(WHITE, blue=BLUE_ASIDE)
"""Yellow on its spot, the cue ball 500 mm up the table: a clear full-ball path."""
AFTER = layout((600.0, 300.0), blue=BLUE_ASIDE)
"""Where the balls came to rest after the miss."""

SAFE = (*after_last_red(), safety("yellow", positions=IN_VIEW))
"""Player 0 scores 8, then leaves player 1 the yellow in full view."""

MISS = shot(None, miss=True, positions=AFTER)


def test_part3_rule14_foul_and_a_miss_is_a_foul_with_its_penalty():
    state = play(*SAFE, MISS)
    result = state.frame.shots[-1]
    assert result.miss is True
    assert result.penalty == 4
    data = state.to_json()
    assert data["scores"] == [12, 0]
    assert data["shots"][-1]["miss"] is True
    assert data["awaiting_decision"] is True


def test_part3_rule14_a_restore_the_offender_plays_again_from_the_original_position():
    state = play(*SAFE, MISS, decision("restore"))
    data = state.to_json()
    assert data["to_play"] == 1
    assert data["scores"] == [12, 0]  # the penalty stands
    assert data["ball_on"] == ["yellow"]  # 14a(ii): a colour, no reds left
    assert data["in_hand"] is False
    assert data["awaiting_decision"] is False
    assert state.frame.positions is not None
    assert state.frame.positions.white == pytest.approx(WHITE)


def test_part3_rule14_a_play_from_the_position_left():
    state = play(*SAFE, MISS, decision("play"))
    assert state.to_json()["to_play"] == 0
    assert state.frame.positions.white == pytest.approx(AFTER["white"])


def test_part3_rule14_a_offender_plays_again_from_the_position_left():
    state = play(*SAFE, MISS, decision("play_again"))
    assert state.to_json()["to_play"] == 1
    assert state.frame.positions.white == pytest.approx(AFTER["white"])


def test_part3_rule14_a_i_restored_ball_on_is_any_red():
    state = play(safety("red"), shot("black", [], miss=True), decision("restore"))
    data = state.to_json()
    assert data["ball_on"] == ["red"]
    assert data["to_play"] == 1
    assert data["scores"] == [7, 0]


def test_part3_rule14_a_iii_restored_ball_on_is_a_colour_after_a_red():
    # A red potted, then the cue ball misses everything with the black nominated:
    # 7 to the opponent, who has the balls replaced: a colour is still on.
    stroke = shot(None, nominated="black", miss=True)
    state = play(pot("red"), stroke, decision("restore"))
    data = state.to_json()
    assert data["scores"] == [1, 7]
    assert data["to_play"] == 0
    assert data["ball_on"] == ["yellow", "green", "brown", "blue", "pink", "black"]
    # The restored colour scores for the offender.
    state = play(pot("red"), stroke, decision("restore"), pot("pink"))
    assert state.to_json()["scores"] == [7, 7]


def test_part3_rule14_a_restore_puts_back_potted_balls():
    # The miss knocks a red in and the pink off the table: all replaced.
    stroke = shot("black", ["red"], off_table=["pink"], miss=True)
    state = play(safety("red"), stroke, decision("restore"))
    data = state.to_json()
    assert data["on_table"]["red"] == 15
    assert data["on_table"]["pink"] == 1
    assert data["scores"] == [7, 0]


def test_part3_rule14_restore_without_a_miss_is_refused():
    state = play(*SAFE, shot(None))
    with pytest.raises(IllegalDecisionError) as error:
        state.push(parse_record(decision("restore")))
    assert error.value.field == "choice"


def _failures(count: int) -> list:
    records = []
    for _ in range(count):
        records += [MISS, decision("restore")]
    return records[:-1]


def test_part3_rule14_c_third_failure_with_a_clear_path_awards_the_frame():
    two = play(*SAFE, *_failures(2)).to_json()
    assert two["frame_over"] is False
    state = play(*SAFE, *_failures(3))
    data = state.to_json()
    assert data["frame_over"] is True
    assert data["winner"] == 0
    assert data["frames_won"] == [1, 0]


def test_part3_rule14_c_without_positions_the_called_misses_count():
    records = [safety("red")]
    for _ in range(3):
        records += [shot("black", [], miss=True), decision("restore")]
    assert play(*records[:-1]).to_json()["winner"] == 0


@pytest.mark.parametrize(
    "blue_dy",
    # The blue on the line: a full snooker. 40 mm aside: part of the yellow is in
    # view but the full-ball path (centre to centre) is blocked.
    [0.0, 40.0],
    ids=["snookered", "partial"],
)
def test_part3_rule14_c_no_frame_award_without_a_full_ball_path(blue_dy):
    hidden = layout(WHITE, blue=(YELLOW[0] + 250.0, YELLOW[1] + blue_dy))
    records = (*after_last_red(), safety("yellow", positions=hidden))
    state = play(*records, *_failures(3))
    data = state.to_json()
    assert data["frame_over"] is False
    assert data["scores"] == [8 + 3 * 4, 0]


def test_part3_rule14_c_a_playing_choice_ends_the_series():
    # After two misses the opponent plays himself; a later miss starts a new count.
    records = [
        *SAFE,
        *_failures(2),
        decision("play"),
        safety("yellow", positions=IN_VIEW),
    ]
    state = play(*records, MISS, decision("restore"), MISS)
    assert state.to_json()["frame_over"] is False
