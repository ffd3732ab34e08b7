"""Seed Part 3, the game: rules 1 to 6, 8, 9 and 11, the end of the frame, breaks,
points remaining, frames won, and malformed or impossible log lines.

Rules 7, 10, 12 and 14 have their own modules. Expected values come from the seed's
text and ball values (Part 1 rule 2), worked out by hand in the comments.
"""

from __future__ import annotations

import json

import pytest

from rules import Foul, IllegalShotError, LogError, parse_record, replay
from tests.rules.helpers import (
    COLOUR_ORDER,
    SPOTS,
    D,
    after_last_red,
    clearance_to,
    concede,
    decision,
    foul7,
    frame,
    last,
    layout,
    play,
    points,
    pot,
    safety,
    shot,
    start,
)

# --- rule 1: description ------------------------------------------------------------


def test_part3_rule1_c_d_points_to_the_striker_penalties_to_the_opponent():
    data = play(pot("red"), pot("blue"), shot("red", ["white"])).to_json()
    # 1 + 5 to player 0; then an in-off with a red on: 4 to player 1.
    assert data["scores"] == [6, 4]


def test_part3_rule1_f_i_frame_won_by_the_higher_score():
    state = play(*clearance_to("black"), safety("black"), pot("black"))
    data = state.to_json()
    # Rule 4a: the first score with only the black left ends the frame, even when
    # the scorer is behind: 28 to 7.
    assert data["frame_over"] is True
    assert data["scores"] == [28, 7]
    assert data["winner"] == 0


# --- rule 2: position of balls ------------------------------------------------------


def test_part3_rule2_a_frame_starts_racked_with_the_cue_ball_in_hand():
    data = play(start(players=["A", "B"], breaker=1)).to_json()
    assert data["on_table"] == {"red": 15} | {c: 1 for c in COLOUR_ORDER}
    assert data["in_hand"] is True
    assert data["to_play"] == 1
    assert data["scores"] == [0, 0]
    assert data["players"] == ["A", "B"]


# --- rule 3: mode of play -----------------------------------------------------------


def test_part3_rule3_a_order_of_play_alternates_visits():
    data = play(safety("red"), safety("red"), safety("red")).to_json()
    assert data["to_play"] == 1
    assert [s["player"] for s in data["shots"]] == [0, 1, 0]


def test_part3_rule3_b_break_off_alternates_each_frame():
    one = (*clearance_to("black"), pot("black"))
    state = play(*one, start(reds=1))
    assert state.to_json()["to_play"] == 1
    assert state.to_json()["breaker"] == 1
    state = play(*one, start(reds=1), concede(), start(reds=1))
    assert state.to_json()["to_play"] == 0


@pytest.mark.parametrize("count", [1, 2, 3])
def test_part3_rule3_e_each_red_potted_in_one_stroke_scores_one(count):
    result = last(shot("red", ["red"] * count))
    assert result.points == count
    data = play(shot("red", ["red"] * count)).to_json()
    assert data["on_table"]["red"] == 15 - count
    assert data["ball_on"] == list(COLOUR_ORDER)


@pytest.mark.parametrize("colour", COLOUR_ORDER)
def test_part3_rule3_f_i_colour_after_a_red_scores_and_is_spotted(colour):
    data = play(pot("red"), pot(colour)).to_json()
    assert data["scores"] == [1 + points(colour), 0]
    assert data["on_table"][colour] == 1
    assert data["ball_on"] == ["red"]


def test_part3_rule3_f_i_first_colour_struck_counts_as_nominated():
    # No nomination: the pink struck first and potted scores 6.
    state = play(pot("red"), shot("pink", ["pink"]))
    result = state.frame.shots[-1]
    assert result.nominated == "pink"
    assert result.points == 6


def test_part3_rule3_f_i_colour_after_a_red_must_be_a_single_colour():
    # Two colours potted after a red: the second is not on (12b(iii)).
    result = last(pot("red"), shot("blue", ["blue", "pink"], nominated="blue"))
    assert result.fouls == (Foul.BALL_NOT_ON_POTTED,)
    assert result.penalty == 6
    assert result.points == 0


def test_part3_rule3_f_ii_a_colour_after_the_last_red_is_spotted():
    state = play(start(reds=1), pot("red"), pot("black"))
    data = state.to_json()
    assert data["on_table"] == {"red": 0} | {c: 1 for c in COLOUR_ORDER}
    assert data["ball_on"] == ["yellow"]
    assert data["scores"] == [8, 0]


def test_part3_rule3_f_iii_colours_in_ascending_value_not_spotted():
    records = list(after_last_red())
    expected_score = 8
    for i, colour in enumerate(COLOUR_ORDER):
        records.append(pot(colour))
        expected_score += points(colour)
        data = play(*records).to_json()
        assert data["on_table"][colour] == 0
        assert data["scores"][0] == expected_score
        assert data["ball_on"] == list(COLOUR_ORDER[i + 1 : i + 2])
    assert expected_score == 8 + 27


def test_part3_rule3_g_reds_are_never_replaced_even_after_a_foul():
    data = play(shot("black", ["red", "red"])).to_json()
    assert data["on_table"]["red"] == 13
    assert data["scores"] == [0, 7]


@pytest.mark.parametrize(
    "stroke",
    [safety("red"), shot("red", ["white"])],
    ids=["no-score", "foul"],
)
def test_part3_rule3_h_no_score_or_a_foul_ends_the_visit(stroke):
    data = play(pot("red"), pot("black"), stroke).to_json()
    assert data["to_play"] == 1
    assert data["current_break"] == 0


# --- rule 4: end of frame -----------------------------------------------------------

TIE_SETUP = (
    start(reds=1),
    *[r for _ in range(3) for r in (foul7(), decision("play_again"))],
    pot("red"),
    pot("black"),
    *[pot(c) for c in COLOUR_ORDER[:-1]],
)
"""Player 0 gives away 3 x 7 = 21, then scores 1 + 7 + 2+3+4+5+6 = 28 and is on the
last black: 28 to 21."""


def test_part3_rule4_a_the_last_black_potted_ends_the_frame():
    data = play(*TIE_SETUP, pot("black")).to_json()
    assert data["frame_over"] is True
    assert data["scores"] == [35, 21]
    assert data["winner"] == 0
    assert data["highest_break"] == [35, 0]


def test_part3_rule4_a_a_foul_on_the_last_black_ends_the_frame():
    data = play(*clearance_to("black"), shot("black", ["white"])).to_json()
    assert data["frame_over"] is True
    assert data["scores"] == [28, 7]
    assert data["winner"] == 0


def test_part3_rule4_a_a_miss_on_the_last_black_does_not_end_the_frame():
    data = play(*clearance_to("black"), safety("black")).to_json()
    assert data["frame_over"] is False
    assert data["to_play"] == 1
    assert data["ball_on"] == ["black"]


@pytest.mark.parametrize(
    "tying",
    [
        (safety("black"), pot("black")),  # player 1 pots it: 28-28
        (shot(None),),  # player 0 fouls, 7 to player 1: 28-28
    ],
    ids=["pot", "foul"],
)
def test_part3_rule4_b_tie_respots_the_black(tying):
    state = play(*TIE_SETUP, *tying)
    data = state.to_json()
    assert data["scores"] == [28, 28]
    assert data["frame_over"] is False
    assert data["respotted_black"] is True
    assert data["on_table"]["black"] == 1  # 4b(i)
    assert data["ball_on"] == ["black"]
    assert data["in_hand"] is True  # 4b(iii)
    assert data["winner"] is None
    assert state.frame.shots[-1].respotted[0].position == pytest.approx(SPOTS["black"])


@pytest.mark.parametrize("toss", [0, 1])
def test_part3_rule4_b_iv_next_score_ends_the_frame(toss):
    tied = (*TIE_SETUP, safety("black"), pot("black"))
    data = play(*tied, pot("black", player=toss)).to_json()
    assert data["frame_over"] is True
    assert data["winner"] == toss
    assert sorted(data["scores"]) == [28, 35]


@pytest.mark.parametrize("toss", [0, 1])
def test_part3_rule4_b_iv_next_foul_ends_the_frame(toss):
    tied = (*TIE_SETUP, safety("black"), pot("black"))
    data = play(*tied, shot(None, player=toss)).to_json()
    assert data["frame_over"] is True
    assert data["winner"] == 1 - toss
    assert data["scores"][1 - toss] == 35


def test_part3_rule4_b_after_the_respot_a_safety_passes_the_turn():
    tied = (*TIE_SETUP, safety("black"), pot("black"))
    state = play(*tied, safety("black", player=0))
    data = state.to_json()
    assert data["frame_over"] is False
    assert data["to_play"] == 1
    data = play(*tied, safety("black", player=0), pot("black")).to_json()
    assert data["winner"] == 1


def test_part3_rule4_no_shot_after_the_frame_is_over():
    state = play(*clearance_to("black"), pot("black"))
    with pytest.raises(IllegalShotError) as error:
        state.push(parse_record(safety("black")))
    assert error.value.field == "type"


# --- rule 5: playing from hand ------------------------------------------------------


def test_part3_rule5_in_hand_any_ball_on_in_any_direction():
    # From hand at the start the cue ball may be played at any red.
    result = last(pot("red"))
    assert result.fouls == ()
    assert result.points == 1


def test_part3_rule5_not_placed_in_the_d_is_a_foul():
    result = last(shot("red", [], referee_fouls=["not_from_d"]))
    assert result.fouls == (Foul.NOT_FROM_D,)
    assert result.penalty == 4


# --- rule 6: two balls at once ------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "foul"),
    [(["red", "red"], False), (["red", "pink"], True), (["red", "yellow"], True)],
)
def test_part3_rule6_only_two_reds_may_be_struck_at_once(first, foul):
    result = last(shot(first, []))
    assert (Foul.TWO_BALLS_AT_ONCE in result.fouls) is foul


# --- rule 8: touching ball ----------------------------------------------------------


def test_part3_rule8_c_i_playing_away_from_a_touching_ball_on():
    result = last(safety("red"), shot(None, touching=["red"]))
    assert result.fouls == ()
    assert play(safety("red"), shot(None, touching=["red"])).to_json()["to_play"] == 0


def test_part3_rule8_touching_ball_from_positions():
    # The cue ball rests against a red (centres one diameter apart).
    red = (300.0, 0.0)
    others = [(600.0 + 60.0 * (i // 7), -300.0 + 60.0 * (i % 7)) for i in range(14)]
    positions = layout((red[0] - D, 0.0), reds=[red, *others])
    records = (safety("red", positions=positions), shot(None))
    assert last(*records).fouls == ()


def test_part3_rule8_d_touching_a_ball_not_on_must_hit_a_ball_on():
    # Touching the black with a red on: played away, nothing hit: a foul.
    result = last(safety("red"), shot(None, touching=["black"]))
    assert result.fouls == (Foul.NO_BALL_STRUCK,)
    assert result.penalty == 4
    assert last(safety("red"), shot("red", [], touching=["black"])).fouls == ()


def test_part3_rule8_b_moving_the_touching_ball_is_a_push_stroke():
    result = last(*clearance_to("pink"), shot("pink", [], touching=["pink"]))
    assert Foul.PUSH_STROKE in result.fouls
    # Rule 12b(v): the ball on or the ball concerned: the pink, 6.
    assert result.penalty == 6


def test_part3_rule8_c_ii_a_touching_colour_nominated_as_the_ball_on():
    stroke = shot(None, touching=["pink"], nominated="pink")
    result = last(pot("red"), stroke)
    assert result.fouls == ()
    # Without a nomination, the one touching colour is taken as nominated.
    result = last(pot("red"), shot(None, touching=["pink"]))
    assert result.fouls == ()


def test_part3_rule8_c_iii_another_ball_nominated_and_struck_first():
    stroke = shot("blue", ["blue"], touching=["pink"], nominated="blue")
    result = last(pot("red"), stroke)
    assert result.fouls == ()
    assert result.points == 5


# --- rule 9: ball on the edge of a pocket -------------------------------------------


@pytest.mark.parametrize(
    "stroke",
    [
        pot("red", fell_unaided=["pink"]),
        shot("red", ["red", "pink"], fell_unaided=["pink"]),
    ],
    ids=["listed-apart", "listed-potted-too"],
)
def test_part3_rule9_a_ball_falling_unaided_is_replaced_points_count(stroke):
    state = play(stroke)
    result = state.frame.shots[-1]
    data = state.to_json()
    assert result.fouls == ()
    assert result.points == 1
    assert data["on_table"]["pink"] == 1
    assert data["on_table"]["red"] == 14
    assert data["scores"] == [1, 0]


def test_part3_rule9_a_a_red_falling_unaided_is_replaced():
    # Two reds in the pockets, one of them fell by itself: one point, one red off.
    state = play(shot("red", ["red", "red"], fell_unaided=["red"]))
    assert state.frame.shots[-1].points == 1
    assert state.to_json()["on_table"]["red"] == 14
    assert state.to_json()["scores"] == [1, 0]


def test_part3_rule9_b_i_replay_without_a_foul_same_striker_plays_again():
    state = play(safety("red"), shot("red", ["red", "red"], replay=True))
    data = state.to_json()
    assert state.frame.shots[-1].replayed is True
    assert data["scores"] == [0, 0]
    assert data["on_table"]["red"] == 15
    assert data["to_play"] == 1
    assert data["awaiting_decision"] is False


def test_part3_rule9_b_ii_replay_with_a_foul_penalty_and_the_usual_choice():
    state = play(safety("red"), shot("pink", ["red"], replay=True))
    data = state.to_json()
    assert data["scores"] == [6, 0]
    assert data["on_table"]["red"] == 15
    assert data["to_play"] == 0
    assert data["awaiting_decision"] is True
    state = play(
        safety("red"), shot("pink", ["red"], replay=True), decision("play_again")
    )
    assert state.to_json()["to_play"] == 1


# --- points remaining and snookers required -----------------------------------------


@pytest.mark.parametrize(
    ("records", "remaining"),
    [
        ((), 147),
        ((pot("red"),), 14 * 8 + 27 + 7),  # a colour is on: at most the black
        ((pot("red"), pot("black")), 14 * 8 + 27),
        ((shot("red", ["red", "red"]),), 13 * 8 + 27 + 7),
        ((pot("red"), shot("pink", ["white"])), 14 * 8 + 27),
        (after_last_red(), 27),
        (clearance_to("pink"), 13),
        (clearance_to("black"), 7),
        ((*clearance_to("black"), pot("black")), 0),
    ],
)
def test_part3_points_remaining(records, remaining):
    assert play(*records).to_json()["points_remaining"] == remaining


def test_part3_rule1_e_snookers_required_when_behind_by_more_than_remains():
    # One red: 35 on the table. Player 1 gives away six 7-point fouls: 42 to 0.
    fouls = [r for _ in range(6) for r in (foul7(), decision("play_again"))]
    data = play(start(reds=1), safety("red"), *fouls).to_json()
    assert data["scores"] == [42, 0]
    assert data["points_remaining"] == 35
    # Player 1 is 7 short of the table: two snookers of at least 4 points.
    assert data["snookers_required"] == [0, 2]


def test_part3_rule1_e_no_snookers_required_while_the_table_holds_enough():
    data = play(pot("red"), pot("black")).to_json()
    assert data["snookers_required"] == [0, 0]
    data = play(*clearance_to("pink")).to_json()
    # 28 to 0 with 13 left: player 1 is 15 short; at least one snooker needed.
    assert data["snookers_required"][0] == 0
    assert data["snookers_required"][1] >= 1


# --- breaks and frames won ----------------------------------------------------------

MAXIMUM = (
    *[r for _ in range(15) for r in (pot("red"), pot("black"))],
    *[pot(c) for c in COLOUR_ORDER],
)


def test_part3_maximum_break_147():
    data = play(*MAXIMUM).to_json()
    assert data["scores"] == [147, 0]
    assert data["highest_break"] == [147, 0]
    assert data["frame_over"] is True
    assert data["winner"] == 0
    assert data["frames_won"] == [1, 0]


def test_part3_highest_break_kept_across_visits_and_frames():
    records = (
        start(reds=2),
        pot("red"),
        pot("pink"),
        safety("red"),  # player 0's break: 7
        pot("red"),
        pot("blue"),
        safety("yellow"),  # player 1's break: 6
    )
    data = play(*records).to_json()
    assert data["highest_break"] == [7, 6]
    data = play(*records, concede(), start(reds=1), pot("red")).to_json()
    assert data["highest_break"] == [7, 6]
    assert data["current_break"] == 1
    assert data["frames_won"] == [0, 1]


def test_part3_frames_won_over_a_match():
    one = (*clearance_to("black"), pot("black"))
    records = (start(reds=1), *one[1:], start(reds=1), concede(), start(reds=1))
    data = play(*records).to_json()
    # Frame 1 to player 0; player 1 breaks frame 2 and concedes it; frame 3 starts.
    assert data["frames_won"] == [2, 0]
    assert data["frame_number"] == 3
    assert data["scores"] == [0, 0]


def test_part3_a_new_frame_needs_the_last_one_over():
    with pytest.raises(IllegalShotError) as error:
        play(safety("red"), start())
    assert error.value.field == "type"


# --- the match log: malformed and impossible lines ----------------------------------


def _lines(*records) -> list[str]:
    return [r if isinstance(r, str) else json.dumps(r) for r in records]


@pytest.mark.parametrize(
    ("bad", "field"),
    [
        ("{not json", "json"),
        ({"type": "hit"}, "type"),
        ({"type": "shot", "first_contact": ["purple"]}, "first_contact"),
        ({"type": "shot", "first_contact": ["red"], "potted": ["purple"]}, "potted"),
        (
            {
                "type": "shot",
                "first_contact": ["red"],
                "potted": [{"ball": "red", "pocket": "x"}],
            },
            "potted",
        ),
        ({"type": "shot", "first_contact": ["red", "red", "red"]}, "first_contact"),
        ({"type": "shot", "first_contact": ["white"]}, "first_contact"),
        ({"type": "shot", "first_contact": ["red"], "off_table": ["tan"]}, "off_table"),
        ({"type": "shot", "first_contact": ["red"], "nominated": "white"}, "nominated"),
        (
            {"type": "shot", "first_contact": ["red"], "referee_fouls": ["sneeze"]},
            "referee_fouls",
        ),
        (
            {"type": "shot", "first_contact": ["red"], "positions": {"white": [1]}},
            "positions",
        ),
        ({"type": "shot", "first_contact": ["red"], "miss": "yes"}, "miss"),
        ({"type": "decision", "choice": "retake"}, "choice"),
        ({"type": "decision", "choice": "play"}, "choice"),  # no foul before it
        ({"type": "frame_start", "breaker": 3}, "breaker"),
    ],
)
def test_match_log_malformed_or_impossible_line_names_line_and_field(bad, field):
    lines = _lines(start(players=["A", "B"]), "", safety("red"), bad, safety("red"))
    result = replay(lines)
    assert result.error is not None
    assert result.error.line == 4  # blank lines count
    assert result.error.field == field
    # The state is the one before the bad line.
    data = result.state.to_json()
    assert data["players"] == ["A", "B"]
    assert len(data["shots"]) == 1
    assert data["to_play"] == 1


@pytest.mark.parametrize(
    ("records", "bad", "field"),
    [
        (after_last_red(), shot("yellow", ["red"]), "potted"),  # no red left
        (after_last_red(), shot("red", []), "first_contact"),
        (clearance_to("green"), shot("green", [], nominated="yellow"), "nominated"),
        ((pot("red"),), shot("red", [], nominated="red"), "nominated"),
        ((shot("red", ["red"] * 15),), shot("black", ["red"]), "potted"),
        ((safety("red"),), decision("restore"), "choice"),
        ((shot(None),), decision("restore"), "choice"),  # a foul without a miss
        ((*clearance_to("black"), pot("black")), safety("black"), "type"),
        ((*clearance_to("black"), pot("black")), concede(), "type"),
    ],
)
def test_match_log_impossible_record_is_refused(records, bad, field):
    result = replay(_lines(*records, bad))
    assert result.error is not None
    assert result.error.field == field
    assert result.error.line == len(records) + 1
    assert result.state.to_json() == play(*records).to_json()


def test_match_log_unknown_variant():
    result = replay(_lines({"type": "frame_start", "variant": "pool"}))
    assert result.error is not None
    assert (result.error.line, result.error.field) == (1, "variant")


def test_match_log_good_log_has_no_error():
    result = replay(_lines(*MAXIMUM))
    assert result.error is None
    assert result.state.to_json()["scores"] == [147, 0]


def test_match_log_parse_record_accepts_the_bare_forms():
    # A bare name for one ball, and a bare name when the pocket is unknown.
    record = parse_record({"type": "shot", "first_contact": "red", "potted": ["red"]})
    assert play().push(record).to_json()["scores"] == [1, 0]
    with pytest.raises(LogError) as error:
        parse_record({"type": "shot", "potted": "red"})
    assert error.value.field == "potted"


def test_match_log_pop_undoes_a_record():
    state = play(pot("red"), shot("black", ["white"]))
    assert state.pop().to_json() == play(pot("red")).to_json()
    assert frame(pot("red")).scores == (1, 0)


def test_part3_rule16_stalemate_rerack_annuls_points_same_breaker():
    state = play(
        start(breaker=1), safety(), pot("red"), pot("black"), {"type": "rerack"}
    )
    data = state.to_json()
    assert data["scores"] == [0, 0]
    assert data["to_play"] == 1
    assert data["on_table"]["red"] == 15
    assert data["frames_won"] == [0, 0]
    assert data["shots"] == []
