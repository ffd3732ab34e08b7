"""Fixtures shared by the test packages."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"
OVERHEAD_SAMPLE = SAMPLES / "overhead_seed1"


@pytest.fixture(scope="session")
def overhead_first_frame() -> np.ndarray:
    """(H, W, 3) uint8 BGR first frame of the committed overhead sample clip."""
    if not (OVERHEAD_SAMPLE / "video.mp4").is_file():
        pytest.skip("no sample clip")
    cap = cv2.VideoCapture(str(OVERHEAD_SAMPLE / "video.mp4"))
    ok, image = cap.read()
    cap.release()
    assert ok
    image.setflags(write=False)
    return image
