"""Snooker golf, the seed's section "Снукер «Гольф»" (golf rules 1-12)."""

from __future__ import annotations

import pytest

from rules import Foul, IllegalDecisionError, IllegalShotError, LogError
from rules.variants import GOLF_POCKETS
from tests.rules.helpers import play

P = [str(p) for p in GOLF_POCKETS]


def golf(players: int = 3, **fields) -> dict:
    names = [f"Golfer {i + 1}" for i in range(players)]
    return {"type": "frame_start", "variant": "golf", "players": names, **fields}


def stroke(ball: str, pocket: str | None = None, cushion: bool = True, **fields):
    """A stroke at ``ball``; potted in ``pocket`` if given; the object ball reaches
    a cushion when ``cushion``."""
    record = {
        "type": "shot",
        "first_contact": [ball],
        "potted": [] if pocket is None else [{"ball": ball, "pocket": pocket}],
        "cushion_after_contact": [ball] if cushion else [],
    }
    record.update(fields)
    return record


def hole_in_one(ball: str, hole: int) -> dict:
    return stroke(ball, P[hole], cushion=False)


def test_golf_rules_1_4_any_number_of_players_six_pockets_in_order():
    # Rule 1: any number; rule 4: each holes out in the six pockets in order.
    records = [golf(5)]
    for hole in range(6):
        records += [hole_in_one(str(p + 1), hole) for p in range(5)]
    data = play(*records).to_json()
    assert data["holes_done"] == [6] * 5
    assert data["frame_over"] is True
    assert data["scores"] == [6] * 5  # rule 5: one point a stroke
    assert data["winner"] is None  # all level


def test_golf_rule5_every_stroke_one_point_each_foul_three_more():
    state = play(golf(2), stroke("1"), stroke("1", "top_right"))
    # Stroke 1: 1 point; stroke 2: wrong pocket (rule 9): 1 + 3.
    assert state.to_json()["scores"] == [5, 0]
    assert state.frame.last.fouls == (Foul.WRONG_POCKET,)


def test_golf_rule6_opening_stroke_must_reach_the_top_cushion():
    # The cue ball reaches a cushion (rule 8 met), the object ball does not.
    short = stroke("1", cushion_after_contact=["white"])
    state = play(golf(2), short)
    last = state.frame.last
    assert last.fouls == (Foul.OPENING_SHORT,)
    assert last.penalty == 3
    # Balls go back; the opening stroke is played again.
    assert state.frame.opening is True
    state = play(golf(2), short, stroke("1"))
    assert state.frame.last.fouls == ()
    assert state.frame.opening is False
    assert state.to_json()["scores"] == [5, 0]


def test_golf_rule6_the_first_player_plays_on_until_his_ball_is_in_hole_one():
    state = play(golf(3), stroke("1"), stroke("1"), stroke("1"))
    assert state.to_json()["to_play"] == 0
    state = play(golf(3), stroke("1"), stroke("1", P[0]))
    data = state.to_json()
    assert data["to_play"] == 1
    assert data["ball_on"] == ["2"]
    assert data["pocket_on"] == P[0]
    # Each player's first hole starts with an opening stroke (rule 6).
    assert state.frame.opening is True


def test_golf_rule7_after_everyone_holes_one_the_first_plays_hole_two():
    records = [golf(3)] + [hole_in_one(str(p + 1), 0) for p in range(3)]
    data = play(*records).to_json()
    assert data["to_play"] == 0
    assert data["pocket_on"] == P[1]
    # Rule 7: no opening requirement on the later holes.
    state = play(*records, stroke("1", cushion=False, cushion_after_contact=["1"]))
    assert state.frame.last.fouls == ()


def test_golf_rule8_ball_in_a_pocket_out_of_turn_is_a_foul():
    last = play(golf(2), stroke("1", P[3])).frame.last
    assert last.fouls == (Foul.WRONG_POCKET,)
    assert last.respotted[0].ball == "1"  # rule 9: back on the back spot


def test_golf_rule8_a_ball_must_reach_a_cushion_or_the_right_pocket():
    records = [golf(2), stroke("1")]  # legal opening
    last = play(*records, stroke("1", cushion_after_contact=[])).frame.last
    assert last.fouls == (Foul.NO_CUSHION,)
    # The cue ball reaching a cushion is enough.
    last = play(*records, stroke("1", cushion_after_contact=["white"])).frame.last
    assert last.fouls == ()


def test_golf_rule8_several_fouls_in_one_stroke_cost_three_at_most():
    records = [golf(2), stroke("1")]
    state = play(
        *records,
        stroke("1", P[4], cushion_after_contact=[], referee_fouls=["push_stroke"]),
    )
    assert len(state.frame.last.fouls) >= 2
    assert state.frame.last.penalty == 3
    assert state.to_json()["scores"] == [1 + 4, 0]


def test_golf_rule10_object_ball_off_the_table_is_a_foul_and_respotted():
    state = play(golf(2), stroke("1"), stroke("1", off_table=["1"]))
    assert state.frame.last.fouls == (Foul.BALL_OFF_TABLE,)
    assert state.frame.last.respotted[0].ball == "1"
    assert state.to_json()["scores"] == [5, 0]


def test_golf_rule11_cue_ball_potted_in_hand_behind_the_baulk_line():
    state = play(
        golf(2), stroke("1"), stroke("1", potted=[{"ball": "white", "pocket": P[2]}])
    )
    data = state.to_json()
    assert data["in_hand"] is True
    assert data["to_play"] == 0  # the player continues (rule 11)


def test_golf_lowest_score_wins():
    records = [golf(2)]
    for hole in range(6):
        records.append(hole_in_one("1", hole))
        records += [stroke("2")] * (hole == 2) + [hole_in_one("2", hole)]
    data = play(*records).to_json()
    assert data["scores"] == [6, 7]
    assert data["winner"] == 0


def test_golf_pocket_order_can_be_changed():
    order = list(reversed(P))
    state = play(golf(1, pockets=order), hole_in_one("1", 5))
    assert state.to_json()["holes_done"] == [1]
    assert state.to_json()["pocket_on"] == order[1]


@pytest.mark.parametrize("pockets", [["top_left"] * 6, ["top_left", "nowhere"]])
def test_golf_pocket_order_names_each_pocket_once(pockets):
    with pytest.raises(LogError) as error:
        play(golf(2, pockets=pockets))
    assert error.value.field == "pockets"


def test_golf_another_players_ball_is_not_on_the_table():
    with pytest.raises(IllegalShotError) as error:
        play(golf(2), stroke("2"))
    assert error.value.field == "first_contact"


def test_golf_has_no_decisions():
    with pytest.raises(IllegalDecisionError):
        play(
            golf(2), stroke("1", cushion=False), {"type": "decision", "choice": "play"}
        )


def test_golf_a_pot_needs_its_pocket():
    with pytest.raises(IllegalShotError) as error:
        play(golf(2), {"type": "shot", "first_contact": ["1"], "potted": ["1"]})
    assert error.value.field == "potted"


def test_golf_with_snooker_balls_the_colours_stand_for_the_players_balls():
    # Played with a snooker set: the first player's ball is the yellow, the
    # second's the green.
    records = [golf(2), stroke("yellow"), stroke("yellow", P[0], cushion=False)]
    data = play(*records).to_json()
    assert data["holes_done"] == [1, 0]
    assert data["ball_on"] == ["2"]
    with pytest.raises(IllegalShotError):
        play(*records, stroke("yellow"))
