"""Tests of the Detections container and the kinds."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detections import Detections
from vision.kinds import KINDS, MAX_COUNT, NONE_CLASS, BallKind, kind_index


def _probs(kinds: list[int]) -> np.ndarray:
    p = np.full((len(kinds), NONE_CLASS + 1), 0.01, np.float32)
    for i, k in enumerate(kinds):
        p[i, k] = 1.0 - 0.01 * NONE_CLASS
    return p


def test_kind_and_confidence_follow_probs() -> None:
    d = Detections(np.zeros((2, 2)), np.ones((2, 2)), np.full(2, 5.0), _probs([3, 7]))
    assert d.kind.tolist() == [3, 7]
    assert d.kind_names() == [str(KINDS[3]), str(KINDS[7])]
    assert np.allclose(d.confidence, 0.92)
    assert not d.xy_px.flags.writeable
    assert len(d.subset(np.array([False, True]))) == 1


def test_bad_shapes_and_values_raise() -> None:
    with pytest.raises(ValueError, match="lengths differ"):
        Detections(np.zeros((2, 2)), np.zeros((1, 2)), np.ones(2), _probs([0, 1]))
    with pytest.raises(ValueError, match="radius"):
        Detections(np.zeros((1, 2)), np.zeros((1, 2)), np.zeros(1), _probs([0]))
    bad = _probs([0]) * 2
    with pytest.raises(ValueError, match="distributions"):
        Detections(np.zeros((1, 2)), np.zeros((1, 2)), np.ones(1), bad)
    with pytest.raises(ValueError, match="held_only"):
        Detections(np.zeros((1, 2)), np.zeros((1, 2)), np.ones(1), _probs([0]),
                   held_only=np.array([True, False]))
    with pytest.raises(ValueError, match="range_mm"):
        Detections(np.zeros((1, 2)), np.zeros((1, 2)), np.ones(1), _probs([0]),
                   range_mm=np.array([5000.0, 5100.0]))


def test_sightings_held_only_are_left_out_of_the_sure_ones() -> None:
    d = Detections(np.arange(6.0).reshape(3, 2), np.ones((3, 2)), np.full(3, 5.0),
                   _probs([1, 1, 2]), held_only=np.array([False, True, False]),
                   range_mm=np.array([5000.0, 5100.0, 5200.0]))
    assert d.sure().kind.tolist() == [1, 2]
    assert d.sure().range_mm.tolist() == [5000.0, 5200.0]
    assert not d.sure().held_only.any()
    assert d.subset(np.array([1])).held_only.tolist() == [True]
    plain = Detections(np.zeros((2, 2)), np.ones((2, 2)), np.full(2, 5.0),
                       _probs([3, 7]))
    assert len(plain.sure()) == 2


def test_kinds() -> None:
    assert len(KINDS) == 8 and kind_index("pink") == KINDS.index(BallKind.PINK)
    assert MAX_COUNT[BallKind.RED] == 15 and MAX_COUNT[BallKind.WHITE] == 1
    assert len(Detections.empty()) == 0


def _pair(apart_px: float, kinds: tuple[int, int], sure: tuple[float, float],
          range_mm: tuple[float, float] | None = None) -> Detections:
    """Two detections ``apart_px`` apart in the image (radius 7 px), read as
    ``kinds`` with those probabilities (the rest spread over the other kinds),
    ``range_mm`` from the camera."""
    probs = np.zeros((2, NONE_CLASS + 1), np.float32)
    for i, (k, p) in enumerate(zip(kinds, sure, strict=True)):
        probs[i] = (1.0 - p) / NONE_CLASS
        probs[i, k] = p
    xy_px = np.array([[100.0, 100.0], [100.0, 100.0 + apart_px]])
    return Detections(xy_px, np.array([[0.0, 0.0], [0.0, 60.0]]), np.full(2, 7.0),
                      probs, range_mm=range_mm)


WHITE, RED, PINK = (kind_index(k) for k in ("white", "red", "pink"))


@pytest.mark.parametrize(("apart_px", "kinds", "sure", "range_mm", "unread"), [
    (9.4, (WHITE, WHITE), (0.99, 0.85), None, [False, True]),  # seed 1026's red
    (9.4, (WHITE, WHITE), (0.85, 0.99), None, [True, False]),
    (9.4, (PINK, PINK), (0.95, 0.7), None, [False, True]),
    (15.0, (WHITE, WHITE), (0.99, 0.85), None, [False, False]),  # discs apart
    (9.4, (RED, RED), (0.99, 0.85), None, [False, False]),  # reds come in numbers
    (9.4, (WHITE, WHITE), (0.99, 0.85), (5400.0, 5300.0), [True, False]),
    # seed 3110's brown, 70 mm beyond the white, read surer white than it
    (9.4, (WHITE, WHITE), (0.991, 0.987), (5400.0, 5330.0), [True, False]),
    # as near the camera as each other: the surer is in front
    (9.4, (WHITE, WHITE), (0.991, 0.987), (5400.0, 5380.0), [False, True]),
    (9.4, (WHITE, PINK), (0.99, 0.85), (5400.0, 5300.0), [False, False]),
    # seed 3200's white, blurred, in front of the pink it struck, read pink
    (9.4, (PINK, PINK), (0.58, 0.90), (5300.0, 5370.0), [True, False]),
])
def test_a_ball_behind_another_loses_the_kind_of_the_one_in_front(
        apart_px: float, kinds: tuple[int, int], sure: tuple[float, float],
        range_mm: tuple[float, float] | None, unread: list[bool]) -> None:
    d = _pair(apart_px, kinds, sure, range_mm)
    out = d.behind_unread()
    for i in range(2):
        if unread[i]:
            assert out.probs[i, kinds[i]] == 0.0
            others = np.delete(out.probs[i, :NONE_CLASS], kinds[i])
            assert np.allclose(others, others[0])
            assert out.ball_prob[i] == pytest.approx(d.ball_prob[i])
        else:
            assert np.array_equal(out.probs[i], d.probs[i])
