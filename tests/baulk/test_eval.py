"""``baulk eval``: comparing found strokes with a clip's truth."""

from __future__ import annotations

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
