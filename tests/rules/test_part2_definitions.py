"""Seed Part 2, definitions: scenarios named after each rule they check.

The expected values are worked out from the seed's text (the IBSF/WPBSA Rules of
Snooker in ``shared/seeds``), not read back from the engine.
"""

from __future__ import annotations

import pytest

from rules import Foul
from tests.rules.helpers import (
    SPOTS,
    D,
    after_last_red,
    clearance_to,
    concede,
    decision,
    frame,
    last,
    layout,
    play,
    pot,
    safety,
    shot,
    start,
)

# --- rule 1: the frame --------------------------------------------------------------


def test_part2_rule1_a_frame_ends_on_a_concession():
    state = play(pot("red"), safety("black"), concede())
    data = state.to_json()
    # Player 1 was the striker and conceded: player 0 wins.
    assert data["frame_over"] is True
    assert data["winner"] == 0
    assert data["scores"] == [1, 0]


def test_part2_rule1_c_frame_ends_on_the_final_pot_of_the_black():
    state = play(*clearance_to("black"), pot("black"))
    data = state.to_json()
    assert data["frame_over"] is True
    assert data["winner"] == 0
    # 1 (red) + 7 (black) + 2+3+4+5+6 (the colours) + 7 (the last black).
    assert data["scores"] == [35, 0]


def test_part2_rule1_c_frame_ends_on_a_foul_when_only_the_black_is_left():
    state = play(*clearance_to("black"), shot(None))
    data = state.to_json()
    assert data["frame_over"] is True
    # Part 3 rule 12a(v): value of the ball on, the black: 7 to the opponent.
    assert data["scores"] == [35 - 7, 7]
    assert data["winner"] == 0


def test_part2_rule1_d_frame_awarded_under_part3_rule14c():
    misses = []
    for _ in range(3):
        misses += [shot(None, miss=True), decision("restore")]
    state = play(safety("red"), *misses[:-1])
    assert state.to_json()["frame_over"] is True
    assert state.to_json()["winner"] == 0


# --- rule 4: the balls --------------------------------------------------------------


def test_part2_rule4_fifteen_reds_and_six_colours_are_the_object_balls():
    data = play().to_json()
    assert data["on_table"] == {
        "red": 15,
        "yellow": 1,
        "green": 1,
        "brown": 1,
        "blue": 1,
        "pink": 1,
        "black": 1,
    }
    # All 15 reds and a black after each, then the colours: the maximum break.
    assert data["points_remaining"] == 15 * (1 + 7) + 2 + 3 + 4 + 5 + 6 + 7


# --- rule 7: pot --------------------------------------------------------------------


def test_part2_rule7_a_ball_entering_a_pocket_after_a_foul_is_not_a_pot():
    result = last(shot("red", ["red", "white"]))
    assert result.points == 0
    assert result.penalty == 4
    # Rule 3g: the red stays off the table all the same.
    assert frame(shot("red", ["red", "white"])).reds == 14


# --- rule 8: break ------------------------------------------------------------------


def test_part2_rule8_break_is_the_pots_of_one_visit():
    state = play(pot("red"), pot("black"), pot("red"), pot("pink"))
    assert state.to_json()["current_break"] == 1 + 7 + 1 + 6
    state = play(pot("red"), pot("black"), pot("red"), pot("pink"), safety("red"))
    data = state.to_json()
    assert data["current_break"] == 0
    assert data["highest_break"] == [15, 0]
    assert data["to_play"] == 1


# --- rule 9: in hand ----------------------------------------------------------------


def test_part2_rule9_a_i_in_hand_before_the_start_of_each_frame():
    assert play().to_json()["in_hand"] is True
    assert play(start()).to_json()["in_hand"] is True


@pytest.mark.parametrize(
    "stroke",
    [
        shot("red", ["white"]),  # a(ii): pocketed
        shot("red", [], off_table=["white"]),  # a(iii): forced off the table
    ],
    ids=["potted", "off_table"],
)
def test_part2_rule9_a_cue_ball_in_hand_when_potted_or_off_the_table(stroke):
    state = play(safety("red"), stroke)
    assert state.to_json()["in_hand"] is True


def test_part2_rule9_b_i_in_hand_until_played_correctly_from_hand():
    state = play(safety("red"))
    assert state.to_json()["in_hand"] is False


def test_part2_rule9_b_ii_in_hand_ends_when_fouling_with_the_cue_ball_on_the_table():
    state = play(shot(None))
    assert state.to_json()["in_hand"] is False


# --- rule 10: ball in play ----------------------------------------------------------


def test_part2_rule10_c_colours_come_back_into_play_when_spotted():
    state = play(pot("red"), pot("pink"))
    assert state.to_json()["on_table"]["pink"] == 1
    assert state.frame.shots[-1].respotted[0].ball == "pink"


def test_part2_rule10_b_object_balls_leave_play_when_potted_or_forced_off():
    state = play(shot("red", ["red"], off_table=["red"]))
    assert state.to_json()["on_table"]["red"] == 13


# --- rule 11: ball on ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("records", "ball_on"),
    [
        ((), ["red"]),
        ((pot("red"),), ["yellow", "green", "brown", "blue", "pink", "black"]),
        ((pot("red"), pot("blue")), ["red"]),
        (after_last_red(), ["yellow"]),
        (clearance_to("pink"), ["pink"]),
        (clearance_to("black"), ["black"]),
    ],
    ids=["break-off", "after-red", "after-colour", "clearance", "pink", "black"],
)
def test_part2_rule11_ball_on(records, ball_on):
    assert play(*records).to_json()["ball_on"] == ball_on


# --- rule 12: nominated ball --------------------------------------------------------


def test_part2_rule12_a_the_nominated_ball_is_the_one_to_strike_first():
    # After a red, black nominated, blue struck first: a foul (Part 3 rule 12b(iv)).
    result = last(pot("red"), shot("blue", [], nominated="black"))
    assert Foul.WRONG_BALL_FIRST in result.fouls
    assert result.penalty == 7


YELLOW = SPOTS["yellow"]


def _snooker_position(blocker_dy: float, white_dx: float = 547.5) -> dict:
    """Yellow on its spot; cue ball ``white_dx`` up the table on the same line; the
    blue half way between, ``blocker_dy`` to the side of the line."""
    white = (YELLOW[0] + white_dx, YELLOW[1])
    positions = layout(white)
    positions["blue"] = [YELLOW[0] + white_dx / 2, YELLOW[1] + blocker_dy]
    return positions


def _after_foul_leaving(positions: dict) -> dict:
    """The state after player 1 fouls in the clearance, leaving ``positions``."""
    records = (*after_last_red(), safety("yellow"), shot(None, positions=positions))
    return play(*records).to_json()


# --- rule 13: free ball -------------------------------------------------------------


def test_part2_rule13_free_ball_is_a_ball_nominated_as_the_ball_on_when_snookered():
    # Yellow on, hidden behind the blue: the foul leaves the next player snookered.
    records = (*after_last_red(), safety("yellow"))
    records += (shot(None, positions=_snooker_position(0.0)),)
    assert play(*records).to_json()["free_ball"] is True
    state = play(*records, decision("play"), pot("blue"))
    result = state.frame.shots[-1]
    assert result.free_ball is True
    # Part 3 rule 10c: it scores the value of the ball on, the yellow.
    assert result.points == 2


# --- rule 16: snookered -------------------------------------------------------------


@pytest.mark.parametrize(
    ("blocker_dy", "snookered"),
    [
        # Centred on the line: neither edge of the yellow can be hit.
        (0.0, True),
        # 40 mm aside: the straight line to the centre is still blocked.
        (40.0, True),
        # 60 mm aside: a full-ball path to the centre is clear (60 > 52.5), but the
        # path to the near edge passes about 60 - 52.5/2 = 33.75 mm from the blue:
        # one edge cannot be hit, so the cue ball is snookered.
        (60.0, True),
        # 100 mm aside: both edge paths pass more than one diameter from the blue.
        (100.0, False),
    ],
)
def test_part2_rule16_snookered_unless_both_edges_of_a_ball_on_can_be_hit(
    blocker_dy, snookered
):
    data = _after_foul_leaving(_snooker_position(blocker_dy))
    assert data["free_ball"] is snookered


def test_part2_rule16_one_clear_ball_on_is_enough_not_to_be_snookered():
    # Red on: one red hidden behind the blue, the other in full view.
    white = (0.0, -400.0)
    hidden = (0.0, 400.0)
    positions = layout(white, reds=[hidden, (600.0, -400.0)], blue=(0.0, 0.0))
    state = play(start(reds=3), pot("red"), shot(None, positions=positions))
    assert state.to_json()["free_ball"] is False
    # With the second red also hidden (behind the pink), the player is snookered.
    positions = layout(
        white, reds=[hidden, (800.0, -400.0)], blue=(0.0, 0.0), pink=(400.0, -400.0)
    )
    state = play(start(reds=3), pot("red"), shot(None, positions=positions))
    assert state.to_json()["free_ball"] is True


def _wall_around(target: tuple[float, float]) -> dict:
    """Five colours in a wall (53 mm apart) 100 mm below ``target`` on the table."""
    x, y = target
    names = ("green", "brown", "blue", "pink", "black")
    return {n: (x - 100.0, y + 53.0 * (i - 2)) for i, n in enumerate(names)}


def test_part2_rule16_a_in_hand_snookered_only_from_every_point_of_the_d():
    # Yellow on near the top cushion behind a wall of five colours: from every point
    # of the D both edges of the yellow are hidden.
    yellow = (1300.0, 0.0)
    wall = _wall_around(yellow)
    positions = layout(None, yellow=yellow, **wall)
    records = (*after_last_red(), safety("yellow"))
    state = play(*records, shot("yellow", ["white"], positions=positions))
    data = state.to_json()
    assert data["in_hand"] is True
    assert data["free_ball"] is True


def test_part2_rule16_a_in_hand_not_snookered_when_one_point_of_the_d_sees_the_ball():
    # Pink on its spot; the black on the blue spot hides it from the middle of the D,
    # but from the corners of the D the pink is in full view.
    records = (*clearance_to("pink"), safety("pink"))
    positions = layout(None, colours=("pink", "black"), black=(0.0, 0.0))
    state = play(*records, shot("pink", ["white"], positions=positions))
    assert state.to_json()["in_hand"] is True
    assert state.to_json()["free_ball"] is False
    # The cue ball on the table, on the centre line in baulk: a snooker.
    positions = layout((-1100.0, 0.0), colours=("pink", "black"), black=(0.0, 0.0))
    state = play(*records, shot(None, positions=positions))
    assert state.to_json()["in_hand"] is False
    assert state.to_json()["free_ball"] is True


def test_part2_rule16_e_a_cushion_cannot_snooker():
    # The yellow frozen to the side cushion, nothing in the way: not snookered.
    half_width = 889.0
    yellow = (-500.0, -half_width + D / 2)
    positions = layout((0.0, -half_width + D / 2), yellow=yellow)
    state = play(*after_last_red(), safety("yellow"), shot(None, positions=positions))
    assert state.to_json()["free_ball"] is False


# --- rule 17: occupied spot ---------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "on_own_spot"),
    [(D + 0.5, True), (D - 0.5, False)],
    ids=["clear-of-the-spot", "would-touch"],
)
def test_part2_rule17_a_spot_is_occupied_if_a_ball_there_would_touch_another(
    gap, on_own_spot
):
    # The pink is potted after a red; a red rests ``gap`` mm above the pink spot.
    pink_spot = SPOTS["pink"]
    red = (pink_spot[0] + gap, 0.0)
    others = ("yellow", "green", "brown", "blue", "black")
    positions = layout((0.0, -300.0), reds=[red], colours=others)
    result = last(start(reds=2), pot("red"), pot("pink", positions=positions))
    (respot,) = result.respotted
    assert respot.ball == "pink"
    if on_own_spot:
        assert respot.position == pytest.approx(pink_spot)
    else:
        # Every spot holds its colour, so rule 7f applies: as near the pink spot as
        # possible towards the top cushion, clear of the red.
        x, y = respot.position
        assert y == pytest.approx(0.0)
        assert red[0] + D < x <= red[0] + D + 2.0


# --- rule 20: miss ------------------------------------------------------------------


def test_part2_rule20_a_miss_is_called_with_a_foul():
    result = last(safety("red"), shot(None, miss=True))
    assert result.miss is True
    assert Foul.NO_BALL_STRUCK in result.fouls
    # A miss is only called with a foul: a legal stroke carries none.
    assert last(safety("red"), safety("red", miss=True)).miss is False
