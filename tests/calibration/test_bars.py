"""Score bars: found as level, upright, one-coloured boxes; hidden when of the
cloth's hue."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.bars import ScoreBar, hide_bars, score_bars

CLOTH = (40, 170, 40)
BAR = (250, 450, 700, 480)


def _field(bar_bgr: tuple[int, int, int], box: tuple[int, int, int, int]) -> np.ndarray:
    """A 960 x 540 frame of cloth on a grey floor with a filled box drawn on it."""
    image = np.full((540, 960, 3), 90, np.uint8)
    image[60:500, 120:840] = CLOTH
    x0, y0, x1, y1 = box
    image[y0:y1, x0:x1] = bar_bgr
    return image


@pytest.mark.parametrize(
    ("colour", "box", "found"),
    [
        ((24, 87, 14), BAR, True),  # dark, of the cloth's hue
        ((60, 20, 20), BAR, True),  # dark blue
        ((24, 87, 14), (250, 150, 700, 180), False),  # in the upper half
        ((24, 87, 14), (250, 450, 380, 480), False),  # too short
        ((24, 87, 14), (250, 450, 700, 455), False),  # too thin
    ],
)
def test_score_bars(
    colour: tuple[int, int, int], box: tuple[int, int, int, int], found: bool
) -> None:
    # (the cloth's own strip below the bar, level and upright too, may be found:
    # it is as bright as the bed, and ``hide_bars`` leaves it)
    bars = [b for b in score_bars(_field(colour, box)) if b.value < 150]
    assert bool(bars) == found
    for bar in bars:
        assert np.allclose(bar.box, box, atol=2)
        assert bar.value == pytest.approx(max(colour), abs=2)


def test_score_bar_with_its_end_over_a_pocket() -> None:
    # where the bar's end lies over a dark pocket its top edge fades short of it
    image = _field((24, 87, 14), BAR)
    image[440:458, 230:262] = (20, 80, 18)
    assert any(np.allclose(bar.box, BAR, atol=2) for bar in score_bars(image))


@pytest.mark.parametrize(
    ("value", "cloth_share", "hidden"),
    [
        (90.0, 1.0, True),  # dark, on the cloth map
        (160.0, 1.0, False),  # as bright as the bed: a cushion strip
        (90.0, 0.0, False),  # not of the cloth's hue: nothing to hide
    ],
)
def test_hide_bars(value: float, cloth_share: float, hidden: bool) -> None:
    cloth = np.zeros((540, 960), np.float32)
    cloth[440:490, 240:710] = cloth_share
    bar = ScoreBar(BAR, value)
    out = hide_bars(cloth, [bar], cloth_value=170.0)
    assert (out[455:475, 260:690].max() == 0.0) == (hidden or cloth_share == 0.0)
    assert out is not cloth or not hidden
    half = hide_bars(cloth[::2, ::2], [bar], cloth_value=170.0, scale=0.5)
    assert (half[230:236, 130:345].max() == 0.0) == (hidden or cloth_share == 0.0)
