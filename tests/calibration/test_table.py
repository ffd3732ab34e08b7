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
