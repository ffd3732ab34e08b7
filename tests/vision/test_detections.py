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


def test_kinds() -> None:
    assert len(KINDS) == 8 and kind_index("pink") == KINDS.index(BallKind.PINK)
    assert MAX_COUNT[BallKind.RED] == 15 and MAX_COUNT[BallKind.WHITE] == 1
    assert len(Detections.empty()) == 0
