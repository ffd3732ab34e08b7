"""Whole frames written as match logs, scored end to end (issue 2, "done when").

The expected figures are worked out by hand from the frames' stories, in the
comments beside each case, not taken from the engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import replay

LOGS = Path(__file__).parents[2] / "examples" / "logs"

CASES = [
    # Judd: 15 x (red 1 + black 7) = 120, then 2+3+4+5+6+7 = 27: 147.
    ("maximum_147.jsonl", [0, 147], 1, [0, 147], False, False),
    # Bob 1+7+1 = 9; Alice hits the blue first (foul 5) -> 14, Bob snookered behind
    # the brown takes the green as a free ball (1) then black, red, blue (+13) -> 28;
    # Alice goes in-off (4) -> Bob 32; put back in, Alice makes red-pink (7) and ten
    # reds with 2 blacks, 2 pinks, 2 browns, 4 yellows (10 + 40) -> 59; Bob clears
    # yellow to black (27) -> 59-59: the black is re-spotted; Alice wins the toss and
    # goes in-off the black: 7 to Bob, 59-66.
    ("fouls_free_ball_respotted_black.jsonl", [59, 66], 1, [59, 27], True, False),
    # Carol 8 x (red + black) = 64; Dan red-pink 7, then Carol misses every ball
    # (4 to Dan) -> 64-11, and Dan, to play, concedes.
    ("concession.jsonl", [64, 11], 0, [64, 7], False, True),
    # American snooker. Sam's break-off sends no red to a cushion: 7 to Lee, who
    # has him break again. Lee: red, blue, red, pink (13) -> 20, then a stroke with
    # no ball to a cushion: 7 to Sam. Sam: a red potted and one off the table (no
    # foul), black, red -> 7 + 9 = 16, then in-off: 7 to Lee -> 27. Lee clears ten
    # reds with ten blacks and the colours: 80 + 27 = 107 -> 134.
    ("american_frame.jsonl", [16, 134], 1, [9, 107], False, False),
    # Snooker golf, three players. Hole 1: Ann's opening falls short (1 + 3), then
    # 2 strokes: 6; Ben's second stroke goes in the wrong pocket (1 + 3), then he
    # holes: 6; Cat holes in one: 1. Holes 2-6 take each two strokes (10), and Cat
    # knocks her ball off the table once on hole 4 (1 + 3): Ann 16, Ben 16, Cat 15.
    ("golf_three_players.jsonl", [16, 16, 15], 2, [0, 0, 0], False, False),
]


@pytest.mark.parametrize(
    ("log", "scores", "winner", "highest", "respotted_black", "conceded"), CASES
)
def test_whole_frame_scores(
    log: str,
    scores: list[int],
    winner: int,
    highest: list[int],
    respotted_black: bool,
    conceded: bool,
) -> None:
    result = replay((LOGS / log).read_text().splitlines())
    assert result.error is None
    data = result.state.to_json()
    assert data["scores"] == scores
    assert data["frame_over"] is True
    assert data["winner"] == winner
    assert data["highest_break"] == highest
    assert data["respotted_black"] is respotted_black
    assert data["conceded"] is conceded
    assert data["frames_won"][winner] == 1
    assert data["match_over"] is False


def test_free_ball_frame_awards_and_takes_the_free_ball() -> None:
    data = replay(
        (LOGS / "fouls_free_ball_respotted_black.jsonl").read_text().splitlines()
    ).state.to_json()
    awarded = [s for s in data["shots"] if s["free_ball_awarded"]]
    taken = [s for s in data["shots"] if s["free_ball"]]
    assert [s["fouls"] for s in awarded] == [["wrong_ball_first"]]
    assert [(s["nominated"], s["points"]) for s in taken] == [("green", 1)]
