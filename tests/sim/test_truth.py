"""Tests of the truth file format and the placeholder sequencing (no physics)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.table import OFFICIAL
from sim.clip import positions_record
from sim.sequencing import (
    Outcome,
    break_place,
    golf_start_state,
    next_state,
    place_in_d,
    rack,
    start_state,
)
from sim.truth import load_clip, write_frames


def test_frames_round_trip(tmp_path: Path) -> None:
    keys = ("white", "red_01")
    mm = np.arange(2 * 2 * 3, dtype=np.float32).reshape(2, 2, 3)
    mm[1, 1] = np.nan
    px = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    vis = np.array([[1.0, 0.5], [1.0, 0.0]], np.float32)
    write_frames(tmp_path / "frames.npz", keys, mm, px, vis)
    (tmp_path / "truth.json").write_text(json.dumps({"fps": 30, "strokes": []}))
    (tmp_path / "match_log.jsonl").write_text('{"type": "frame_start"}\n')
    clip = load_clip(tmp_path)
    assert clip.keys == keys
    assert clip.on_table.tolist() == [[True, True], [True, False]]
    np.testing.assert_array_equal(clip.positions_px, px)
    assert clip.match_log == [{"type": "frame_start"}]


def test_rack_has_no_overlaps() -> None:
    for reds in (6, 10, 15):
        pos = rack(OFFICIAL, reds)
        assert sum(k.startswith("red") for k in pos) == reds
        xy = np.array(list(pos.values()))
        d = np.linalg.norm(xy[:, None] - xy[None], axis=2) + np.eye(len(xy)) * 1e9
        assert d.min() >= 2 * OFFICIAL.ball_radius
        assert all(OFFICIAL.on_bed(p) for p in pos.values())


def test_place_in_d() -> None:
    rng = np.random.default_rng(0)
    pos = rack(OFFICIAL)
    for _ in range(20):
        p = place_in_d(pos, OFFICIAL, rng)
        assert OFFICIAL.in_d(p)


@pytest.mark.parametrize("place", ["break", "in hand"])
def test_the_cue_ball_is_set_down_clear_of_every_ball(place: str) -> None:
    # seed 510's break: set down 46.6 mm from the yellow, overlapping it
    rng = np.random.default_rng(510)
    pos = rack(OFFICIAL)
    chosen = break_place if place == "break" else place_in_d
    for _ in range(200):
        p = np.array(chosen(pos, OFFICIAL, rng))
        gaps = np.linalg.norm(np.array(list(pos.values())) - p, axis=1)
        assert gaps.min() >= 2 * OFFICIAL.ball_radius, gaps.min()
        assert OFFICIAL.in_d(tuple(p))


def test_positions_record_contract_form() -> None:
    rec = positions_record({"white": (1.0, 2.0), "red_01": (3, 4), "red_02": (5, 6)})
    assert rec == {"white": [1.0, 2.0], "red": [[3.0, 4.0], [5.0, 6.0]]}


def _record(first: str, potted: list[str], final: dict) -> dict:
    return {
        "type": "shot",
        "first_contact": [first],
        "potted": potted,
        "positions": positions_record(final),
    }


def test_sequencing_asks_the_rules_engine() -> None:
    pos = rack(OFFICIAL, 6)
    state = start_state(pos, 6, OFFICIAL)
    pos["white"] = (-1100.0, 50.0)
    final = {k: v for k, v in pos.items() if k != "red_01"}
    state2, respotted = next_state(
        state, Outcome(_record("red", ["red"], final), final), OFFICIAL
    )
    assert state2.ball_on == "colour" and state2.to_play == 0 and not respotted
    # The pink potted comes back to its spot (seed Part 3 rule 7).
    final3 = {k: v for k, v in state2.positions.items() if k != "pink"}
    state3, respotted = next_state(
        state2, Outcome(_record("pink", ["pink"], final3), final3), OFFICIAL
    )
    assert respotted == {"pink": OFFICIAL.spots["pink"]}
    assert state3.ball_on == "red" and state3.to_play == 0
    # In-off: foul, turn passes, cue ball in hand.
    final4 = {k: v for k, v in state3.positions.items() if k != "white"}
    state4, _ = next_state(
        state3, Outcome(_record("red", ["white"], final4), final4), OFFICIAL
    )
    assert (
        state4.cue_in_hand and state4.to_play == 1 and "white" not in state4.positions
    )
    assert state4.referee is not None and state4.referee.scores == (7, 4)


def test_sequencing_respots_on_a_free_spot_when_its_own_is_taken() -> None:
    pos = rack(OFFICIAL, 6)
    state = start_state(pos, 6, OFFICIAL)
    # A foul pots the pink while a red stands on its spot and every other colour
    # is on its own: no spot is free, so rule 7f puts the pink as near its spot as
    # it can, towards the top cushion.
    final = {k: v for k, v in pos.items() if k != "pink"}
    final["red_01"] = OFFICIAL.spots["pink"]
    final["white"] = (-1100.0, 50.0)
    _, respotted = next_state(
        state, Outcome(_record("red", ["pink"], final), final), OFFICIAL
    )
    x, y = respotted["pink"]
    assert y == 0 and x > OFFICIAL.spots["pink"][0] + OFFICIAL.ball_diameter_mm


def test_sequencing_referees_with_the_clip_variant() -> None:
    state = start_state(rack(OFFICIAL, 6), 6, OFFICIAL, "american")
    assert state.referee is not None and state.referee.variant == "american"
    with pytest.raises(ValueError, match="golf"):
        start_state(rack(OFFICIAL, 6), 6, OFFICIAL, "golf")


def test_golf_sequencing_next_player_on_the_back_spot() -> None:
    state = golf_start_state(2, OFFICIAL)
    assert state.positions == {
        "yellow": OFFICIAL.spots["black"],
        "white": OFFICIAL.spots["blue"],
    }
    # The yellow (ball 1) goes into the first hole: the green (ball 2) comes on
    # the back spot and the cue ball back on the centre spot (golf rules 6, 7).
    record = {
        "type": "shot",
        "first_contact": ["1"],
        "potted": [{"ball": "1", "pocket": state.pocket_on}],
        "cushion_after_contact": [],
    }
    final = {"white": (500.0, 200.0)}
    state2, _ = next_state(state, Outcome(record, final), OFFICIAL)
    assert state2.to_play == 1 and state2.ball_on == "green"
    assert state2.positions == {
        "white": OFFICIAL.spots["blue"],
        "green": OFFICIAL.spots["black"],
    }
