"""The real labelled frames in ../shared/real: every visible ball is found with
its colour, and nothing else."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.mapping import fit_points
from calibration.table import OFFICIAL
from vision.detect import BallDetector

REAL = Path(__file__).parents[2].parent / "shared" / "real"

pytestmark = pytest.mark.skipif(
    not (REAL / "labels.json").is_file(), reason=f"{REAL} (real frames) not present"
)


@pytest.mark.parametrize("name", ["overhead_eurosport.png", "broadcast_angle.png"])
def test_every_labelled_ball_found(name: str) -> None:
    lab = json.loads((REAL / "labels.json").read_text())[name]
    image = cv2.imread(str(REAL / name))
    corners = lab["table_corners_px"]
    cal = fit_points(
        np.array(list(corners.values())),
        np.array([OFFICIAL.corners[n] for n in corners]),
        (image.shape[1], image.shape[0]),
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        d = BallDetector(cal).detect(image).sure()
    for ball in lab["balls"]:
        if ball["occluded"]:
            continue
        dist = np.linalg.norm(d.xy_px - np.array(ball["px"]), axis=1)
        assert dist.min() < 0.5 * ball["r_px"], ball
        assert d.kind_names()[int(np.argmin(dist))] == ball["ball"], ball
    assert len(d) <= len(lab["balls"])  # nothing else (cue, arm, cushions)
