"""The self-check: true calibrations pass, calibrations off by centimetres fail."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.mapping import Calibration, CalibrationError, CameraPose
from calibration.table import OFFICIAL
from calibration.verify import check, verify
from tests.calibration.frames import TruthFrame, truth_frame

SMALL = (960, 540)


def _true_calibration(
    frame: TruthFrame, shift_mm: tuple[float, float] = (0.0, 0.0)
) -> Calibration:
    """The frame's true camera as a calibration, off by ``shift_mm`` on the table."""
    cam = frame.camera
    # table point X is put where the true camera sees X + shift
    move = np.array([[1.0, 0, shift_mm[0]], [0, 1.0, shift_mm[1]], [0, 0, 1.0]])
    h_i2t = np.linalg.inv(move) @ cam.homography_cloth_inv()
    t_moved = cam.t + cam.R @ np.array([shift_mm[0], shift_mm[1], 0.0])
    pose = CameraPose(cam.K, cam.R, t_moved, "given")
    return Calibration(
        image_size=cam.size, table="official", homography=h_i2t, method="auto",
        pose=pose, dist_coeffs=cam.dist,
    )


@pytest.mark.parametrize(("view", "index"), [("broadcast", 3), ("overhead", 1)])
def test_truth_passes_and_wrong_fails(view: str, index: int) -> None:
    frame = truth_frame(view, index, size=SMALL)
    verdict = verify(frame.image, _true_calibration(frame))
    assert verdict.ok, verdict.reason
    for shift in [(60.0, 0.0), (0.0, 60.0), (-60.0, 0.0)]:
        wrong = _true_calibration(frame, shift)
        with pytest.raises(CalibrationError, match="self-check"):
            check(frame.image, wrong)



def test_score_bar_just_inside_the_baulk_cushion() -> None:
    # a dark bar of the cloth's hue (or a blue one) over the bed just inside the
    # baulk cushion's nose: its edge is not taken for the cushion's
    frame = truth_frame("broadcast", 3, size=(1280, 720))
    hl, hw = OFFICIAL.half_length, OFFICIAL.half_width
    box = np.array([(-hl + 8, -hw), (-hl + 8, hw), (-hl + 108, hw), (-hl + 108, -hw)])
    px = np.round(frame.camera.project_cloth(box, 0.0)).astype(np.int32)
    for colour in [(26, 77, 37), (89, 63, 32)]:
        image = cv2.fillConvexPoly(frame.image.copy(), px, colour)
        verdict = verify(image, _true_calibration(frame))
        assert verdict.ok, verdict.reason



def test_cue_lying_along_a_cushion() -> None:
    # rendered frame 192: a player at the far left corner cueing along the top
    # cushion, the cue over its nose; its edges are not the cushion's (the samples
    # under it are not counted)
    frame = truth_frame("broadcast", 192)
    verdict = verify(frame.image, _true_calibration(frame))
    assert verdict.ok, verdict.reason
