"""The table's geometry (``calibration.table``)."""

from __future__ import annotations

import math

import pytest

from calibration.table import OFFICIAL, Pocket


@pytest.mark.parametrize(("pocket", "signs"), [
    (Pocket.BAULK_LEFT, (-1, 1)), (Pocket.BAULK_RIGHT, (-1, -1)),
    (Pocket.TOP_LEFT, (1, 1)), (Pocket.TOP_RIGHT, (1, -1)),
])
def test_a_corner_pockets_fall_lies_beyond_the_corner_on_its_diagonal(
        pocket: Pocket, signs: tuple[int, int]) -> None:
    fall = OFFICIAL.corner_falls()[pocket]
    corner = OFFICIAL.pockets[pocket]
    beyond = [(f - c) * s for f, c, s in zip(fall, corner, signs, strict=True)]
    assert beyond[0] == pytest.approx(beyond[1])  # on the diagonal, outwards
    assert math.dist(fall, corner) == pytest.approx(OFFICIAL.corner_fall_depth_mm)


def test_middle_pockets_have_no_corner_fall() -> None:
    assert set(OFFICIAL.corner_falls()) == {
        Pocket.BAULK_LEFT, Pocket.BAULK_RIGHT, Pocket.TOP_LEFT, Pocket.TOP_RIGHT}


@pytest.mark.parametrize("pocket", [Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT])
def test_a_middle_pockets_fall_lies_beyond_the_side_cushion(pocket: Pocket) -> None:
    (x, y), radius = OFFICIAL.falls()[pocket]
    mouth = OFFICIAL.pockets[pocket]
    assert x == mouth[0]
    assert abs(y) - abs(mouth[1]) == pytest.approx(OFFICIAL.middle_fall_depth_mm)
    assert radius == OFFICIAL.middle_fall_radius_mm


@pytest.mark.parametrize(("point", "in_jaws"), [
    ((1745.4, -859.5), True),   # seed 1458's black, stopped in the top-right jaws
    ((-1764.6, -857.8), True),  # seed 1058's red, by the baulk-right jaw
    ((1790.0, 900.0), False),   # over the top-left fall: it dropped
    ((1650.0, -750.0), False),  # on the bed, 190 mm from the pocket
    ((0.0, 880.0), False),      # a middle pocket's opening has no jaws to stop in
])
def test_a_ball_is_in_a_corner_s_jaws_by_its_mouth_short_of_the_fall(
        point: tuple[float, float], in_jaws: bool) -> None:
    assert OFFICIAL.in_corner_jaws(point) == in_jaws


def test_how_far_inside_a_corner_s_fall_a_ball_lies() -> None:
    fall = OFFICIAL.corner_falls()[Pocket.TOP_LEFT]
    radius = OFFICIAL.corner_fall_radius_mm
    assert OFFICIAL.inside_corner_fall(fall) == pytest.approx(radius)
    # seed 2906's white, at rest on the fall's lip, 47.6 mm from its centre
    assert OFFICIAL.inside_corner_fall((1770.9, 887.3)) == pytest.approx(
        radius - math.dist((1770.9, 887.3), fall))
    assert OFFICIAL.inside_corner_fall((1770.9, 887.3)) < 0.0
    assert OFFICIAL.inside_corner_fall((0.0, 0.0)) == -math.inf


@pytest.mark.parametrize(("point", "heading", "run_mm", "drops"), [
    # seed 1058's red: 34 mm from the baulk-right corner, along the side
    # cushion, 26 mm to go: it met the jaw and stopped there
    ((-1764.6, -857.8), (-1.0, 0.0), 26.0, False),
    ((-1764.6, -857.8), (-1.0, 0.0), 500.0, False),  # wide of the fall
    ((-1764.6, -857.8), (-1.0, -1.0), 60.0, True),  # on the diagonal
    ((-1764.6, -857.8), (-1.0, -1.0), 10.0, False),  # stops short of it
    ((-1764.6, -857.8), (1.0, 0.0), 500.0, False),  # away from it
    ((-1764.6, -857.8), (0.0, 0.0), 500.0, False),  # not rolling
    ((1790.0, 900.0), (1.0, 1.0), 0.0, True),  # over the top-left fall already
    # seed 1166's red, in the middle-left jaws 54 mm from the fall's centre
    ((40.4, 876.7), (-1.0, 1.0), 5.0, False),
    ((40.4, 876.7), (-1.0, 1.0), 20.0, True),  # rolling on into it
])
def test_a_ball_drops_if_it_rolls_on_into_a_fall(
        point: tuple[float, float], heading: tuple[float, float], run_mm: float,
        drops: bool) -> None:
    assert OFFICIAL.rolls_into_fall(point, heading, run_mm) == drops


@pytest.mark.parametrize(("point", "heading", "run_mm"), [
    # seed 1140's white, lost at 6.6 mm a frame into the top-right jaws
    ((1770.9, -852.6), (4.0, -6.6), 30.2),    # into it
    ((1770.9, -852.6), (-6.6, -1.0), None),   # back along the cushion: wide
    ((1790.0, -900.0), (1.0, 0.0), 0.0),      # over it already
    ((1770.9, -852.6), (-4.0, 6.6), None),    # away from it
    ((0.0, 0.0), (0.0, 0.0), None),           # not rolling
    ((0.0, 860.0), (0.0, 1.0), 10.5),          # into a middle pocket's fall
])
def test_how_far_a_ball_rolls_to_a_fall(
        point: tuple[float, float], heading: tuple[float, float],
        run_mm: float | None) -> None:
    run = OFFICIAL.run_to_fall(point, heading)
    if run_mm is None:
        assert run is None
    else:
        assert run is not None and run == pytest.approx(run_mm, abs=0.5)
