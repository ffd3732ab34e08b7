"""``baulk eval``: comparing found strokes with a clip's truth."""

from __future__ import annotations

import numpy as np
import pytest

from baulk.commands.eval import compare


def _truth(first: list[str], potted: list[dict]) -> dict:
    log = {"type": "shot", "first_contact": first, "potted": potted, "off_table": []}
    return {"strokes": [{"start_frame": 10, "end_frame": 50, "log": log}]}


def _found(first: list[str], potted: list[dict]) -> list[dict]:
    return [
        {
            "start_frame": 11,
            "end_frame": 49,
            "first_contact": first,
            "potted": potted,
            "off_table": [],
        }
    ]


@pytest.mark.parametrize(("variant", "right"), [("golf", 1), ("wpbsa", 0)])
def test_golf_balls_seen_as_colours_compare_by_number(variant: str, right: int):
    # In snooker golf the first player's ball "1" is the yellow the camera sees.
    truth = _truth(["1"], [{"ball": "1", "pocket": "top_left"}])
    found = _found(["yellow"], [{"ball": "yellow", "pocket": "top_left"}])
    fig = compare(found, {"variant": variant}, truth, {"variant": variant})
    assert fig.strokes_matched == 1
    assert fig.first_contact_right == right
    assert fig.pots_right == right


@pytest.mark.parametrize(("spin_frames", "seen_end", "within"), [
    (0, 50, 0),   # the balls stop moving at the true end; found 12 early
    (12, 38, 1),  # they spin on the spot 12 frames, which the truth counts
])
def test_the_end_a_camera_can_see_is_where_the_balls_stopped_moving(
        spin_frames: int, seen_end: int, within: int) -> None:
    from baulk.commands.eval import seen_ends

    positions = np.zeros((60, 2, 3))
    stop = 50 - spin_frames
    positions[10:stop, 0, 0] = np.arange(stop - 10) * 20.0  # rolls, then still
    positions[stop:, 0, 0] = positions[stop - 1, 0, 0]
    positions[:, 1] = np.nan  # a ball off the table throughout
    truth = _truth(["red"], [])
    assert seen_ends(truth, positions) == [seen_end]
    found = [{**_found(["red"], [])[0], "end_frame": 38}]
    fig = compare(found, {}, truth, None, seen_ends(truth, positions))
    assert fig.summary()["start_seen_end_within_2"] == f"{within}/1"


@pytest.mark.parametrize(("true_off", "found_off", "found", "false"), [
    (["black"], ["black"], 1, 0),
    ([], ["black"], 0, 1),   # seed 1096: a black that rattled out called off
    (["red"], [], 0, 0),
])
def test_balls_called_off_the_table_falsely_are_counted_and_named(
        true_off: list[str], found_off: list[str], found: int, false: int) -> None:
    truth = _truth(["red"], [])
    truth["strokes"][0]["log"]["off_table"] = true_off
    strokes = [{**_found(["red"], [])[0], "off_table": found_off}]
    fig = compare(strokes, {}, truth, None)
    s = fig.summary()
    assert s["off_table_found"] == f"{found}/{len(true_off)}"
    assert s["off_table_false"] == false
    assert any("off the table" in m for m in fig.mistakes) == (true_off != found_off)
