"""The vision pipeline's search policy: only the work a frame needs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from baulk.video import calibration_for
from vision.pipeline import LOST_FRAMES, Pipeline
from vision.track import TrackStatus

SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "overhead_seed1"


@pytest.mark.parametrize(("lost", "full_searches"), [(False, 1), (True, 2)])
def test_a_still_table_is_searched_again_only_while_a_ball_is_lost(
        lost: bool, full_searches: int, overhead_first_frame: np.ndarray) -> None:
    image = overhead_first_frame
    cal = calibration_for(str(SAMPLE / "calibration.json"), "official", image)
    pipe = Pipeline(cal, lost_every=4)
    regions, dets = pipe.detect(image, 0)
    assert regions is None  # the first frame: a full search
    for f in range(3):  # tracks start on repeated sightings
        pipe.track(f, None, dets)
    assert len(pipe.tracker.active()) >= 10
    if lost:
        t = pipe.tracker.tracks[0]
        t.status, t.missed = TrackStatus.HIDDEN, LOST_FRAMES + 1
    searches = [pipe.detect(image, f)[0] for f in range(1, 6)]
    assert searches.count(None) == full_searches - 1
    assert all(r in ([], None) for r in searches)  # the same image: nothing changed
    assert pipe.frames_full == full_searches
