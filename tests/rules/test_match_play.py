"""Match play: frames, best of N, aggregate points, forfeits, fours.

Seed Part 2 rules 2-3, Part 3 rules 1f-h, 3b, 4, 17 and Part 4 rules 3, 6.
"""

from __future__ import annotations

import pytest

from rules import IllegalShotError, LogError
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


def frame_won_by(winner: int) -> list[dict]:
    """A frame conceded by the loser, whoever breaks off: the player to play
    concedes, so the loser takes the first stroke if he is not to play."""
    return [concede()] if winner == 1 else [safety(), concede()]


def test_part3_rule3b_break_off_alternates_between_frames():
    state = play(start(players=["A", "B"]), concede(), start())
    assert state.to_json()["breaker"] == 1
    assert state.to_json()["to_play"] == 1
    data = play(
        start(players=["A", "B"]), concede(), start(), concede(), start()
    ).to_json()
    assert data["breaker"] == 0
    assert data["frames_won"] == [1, 1]


def test_part2_rule2_best_of_three_ends_at_two_frames():
    records = [
        start(players=["A", "B"], best_of=3),
        concede(),
        start(),
        safety(),
        concede(),
    ]
    # Frame 1: A breaks and concedes (B 1); frame 2: B breaks, plays a safety, A
    # concedes (B 2): B wins the match.
    data = play(*records).to_json()
    assert data["frames_won"] == [0, 2]
    assert data["match_over"] is True
    assert data["match_winner"] == 1
    with pytest.raises(IllegalShotError):
        play(*records, start())


def test_part2_rule2_best_of_three_goes_on_at_one_all():
    data = play(start(best_of=3), concede(), start(), concede()).to_json()
    assert data["frames_won"] == [1, 1]
    assert data["match_over"] is False
    assert data["match_winner"] is None


def test_match_format_cannot_change():
    with pytest.raises(LogError):
        play(start(best_of=3), concede(), start(best_of=5))


def test_part3_rule4a_ii_aggregate_tied_frame_is_not_respotted():
    # One red. Player 0 measures three times (seven each, put back in each time),
    # clears to the pink (28) and misses the black; player 1, 21 from the fouls,
    # pots it: 28-28. With aggregate points counting the frame just ends, drawn.
    foul7 = shot("red", [], referee_fouls=["measuring"])
    records = [start(reds=1, aggregate=True, frames=2)]
    records += [foul7, decision("play_again")] * 3
    records += [*clearance_to("black")[1:], safety("black"), pot("black")]
    data = play(*records).to_json()
    assert data["scores"] == [28, 28]
    assert data["frame_over"] is True
    assert data["respotted_black"] is False
    assert data["winner"] is None
    assert data["points_total"] == [28, 28]


def test_part3_rule4c_aggregate_tie_in_the_last_frame_respots_the_black():
    foul7 = shot("red", [], referee_fouls=["measuring"])
    frame = [foul7, decision("play_again")] * 3
    frame += [*clearance_to("black")[1:], safety("black"), pot("black")]
    records = [start(reds=1, aggregate=True, frames=1), *frame]
    data = play(*records).to_json()
    assert data["respotted_black"] is True
    assert data["frame_over"] is False


def test_part3_rule1g_ii_aggregate_winner_has_most_points():
    records = [
        start(aggregate=True, frames=2),
        pot("red"),
        pot("black"),
        concede(),
        start(),
        concede(),
    ]
    # Frame 1: A 8, then concedes to B: with aggregate points counting B gets the
    # balls left (Part 4 rule 6b): 14 reds x 8 + 27 = 139. Frame 2: B breaks and
    # concedes: A gets 15 x 8 + 27 = 147.
    data = play(*records).to_json()
    assert data["points_total"] == [8 + 147, 139]
    assert data["match_over"] is True
    assert data["match_winner"] == 0


def test_part4_rule3b_game_forfeit_in_frames():
    data = play(
        start(best_of=5), {"type": "forfeit", "player": 0, "game": True}
    ).to_json()
    assert data["frames_won"] == [0, 3]
    assert data["match_over"] is True
    assert data["match_winner"] == 1


def test_part4_rule3b_iii_game_forfeit_on_aggregate_147_per_frame_left():
    data = play(
        start(aggregate=True, frames=3),
        pot("red"),
        {"type": "forfeit", "player": 0, "game": True},
    ).to_json()
    # This frame: A loses his 1, B gets 14 x 8 + 27 = 139; two frames left, 147-0.
    assert data["points_total"] == [0, 139 + 2 * 147]
    assert data["match_winner"] == 1


FOURS = start(players=["A1", "B1", "A2", "B2"])


def test_part3_rule17_fours_play_in_turn_scores_per_side():
    data = play(
        FOURS,
        pot("red"),
        safety("pink", nominated="pink"),
        pot("red"),
        pot("blue"),
        safety(),
    ).to_json()
    # A1: 1, misses the pink; B1: red + blue = 6, safety; A2 to play.
    assert data["scores"] == [1, 6]
    assert data["to_play"] == 2
    assert data["sides"] == [[0, 2], [1, 3]]


def test_part3_rule17c_fours_offender_plays_again_then_order_resumes():
    # A1 fouls; B1 asks him to play again; A1's visit ends; the next is B1 again:
    # the player after the offender in the order.
    data = play(FOURS, shot("blue", []), decision("play_again"), safety()).to_json()
    assert data["scores"] == [0, 5]
    assert data["to_play"] == 1


def test_part3_rule17a_fours_sides_break_off_in_turn():
    data = play(FOURS, concede(), start()).to_json()
    assert data["breaker"] == 1
    assert data["frames_won"] == [0, 1]
