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


def test_sightings_held_only_are_left_out_of_the_sure_ones() -> None:
    d = Detections(np.arange(6.0).reshape(3, 2), np.ones((3, 2)), np.full(3, 5.0),
                   _probs([1, 1, 2]), held_only=np.array([False, True, False]))
    assert d.sure().kind.tolist() == [1, 2]
    assert not d.sure().held_only.any()
    assert d.subset(np.array([1])).held_only.tolist() == [True]
    plain = Detections(np.zeros((2, 2)), np.ones((2, 2)), np.full(2, 5.0),
                       _probs([3, 7]))
    assert len(plain.sure()) == 2


def test_kinds() -> None:
    assert len(KINDS) == 8 and kind_index("pink") == KINDS.index(BallKind.PINK)
    assert MAX_COUNT[BallKind.RED] == 15 and MAX_COUNT[BallKind.WHITE] == 1
    assert len(Detections.empty()) == 0
