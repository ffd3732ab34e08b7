"""Footage and calibration input shared by ``baulk track`` and ``baulk analyze``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from baulk.errors import UserError
from baulk.video import calibration_for, open_video
from calibration.mapping import save_calibration
from sim.scenes import clip_calibration

CLIP = Path(__file__).parents[2] / "sample_videos" / "overhead_seed1"


@pytest.fixture
def frame() -> np.ndarray:
    return np.zeros((1080, 1920, 3), np.uint8)


def test_a_baulk_calibrate_file_and_a_synth_clip_camera_both_load(
    tmp_path: Path, frame: np.ndarray
) -> None:
    truth = clip_calibration(CLIP / "calibration.json")
    saved = tmp_path / "table.json"
    save_calibration(truth, saved)
    from_file = calibration_for(str(saved), "official", frame)
    from_clip = calibration_for(str(CLIP / "calibration.json"), "official", frame)
    assert np.allclose(from_file.homography, from_clip.homography)


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such file"), ("{", "not"), ('{"camera": {}}', "not a calibration")],
)
def test_bad_calibration_is_a_user_error(
    tmp_path: Path, frame: np.ndarray, content: str | None, message: str
) -> None:
    path = tmp_path / "cal.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(UserError, match=message):
        calibration_for(str(path), "official", frame)


def test_calibration_for_another_frame_size_is_refused(tmp_path: Path) -> None:
    small = np.zeros((720, 1280, 3), np.uint8)
    with pytest.raises(UserError, match="1920x1080"):
        calibration_for(str(CLIP / "calibration.json"), "official", small)


def test_not_a_video(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"not a video")
    with pytest.raises(UserError, match=r"bad\.mp4"):
        open_video(bad)
