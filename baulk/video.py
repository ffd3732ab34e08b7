"""Opening footage and finding its calibration: shared by ``baulk track`` and
``baulk analyze``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from baulk.errors import UserError


def open_video(path: Path) -> tuple[Any, Any]:
    """An opened ``cv2.VideoCapture`` and its first frame.

    Raises:
        UserError: a missing file, or one that is not a decodable video.
    """
    import cv2

    if not path.is_file():
        raise UserError(f"{path}: no such file")
    capture = cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise UserError(f"{path}: not a readable video")
    ok, first = capture.read()
    if not ok or first is None:
        capture.release()
        raise UserError(f"{path}: no frames could be decoded (corrupt video?)")
    return capture, first


def _read_calibration(path: Path) -> Any:
    """A ``baulk calibrate`` file, or a ``baulk synth`` clip's ``calibration.json``
    (the true camera)."""
    from calibration.mapping import load_calibration

    if not path.is_file():
        raise UserError(f"{path}: no such file")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: not a calibration file ({error})") from None
    if (
        isinstance(data, dict)
        and isinstance(data.get("camera"), dict)
        and ("homography" not in data)
    ):
        from sim.scenes import clip_calibration

        try:
            return clip_calibration(path)
        except (KeyError, TypeError, ValueError) as error:
            raise UserError(f"{path}: not a calibration file ({error})") from None
    return load_calibration(path)


def calibration_for(calibration: str | None, table: str, first: Any) -> Any:
    """The calibration of footage whose first frame is ``first``: read from the
    file given, else found automatically.

    Raises:
        UserError: an unreadable or degenerate calibration, one made for another
            frame size, or a table the automatic calibration cannot find.
    """
    from calibration.mapping import CalibrationError

    try:
        if calibration:
            cal = _read_calibration(Path(calibration))
        else:
            from calibration.auto import auto_calibrate

            cal = auto_calibrate(first, table=table)
    except CalibrationError as error:
        raise UserError(f"calibration: {error}") from None
    if cal.image_size != (first.shape[1], first.shape[0]):
        raise UserError(
            f"calibration is for {cal.image_size[0]}x{cal.image_size[1]} frames, "
            f"the video's are {first.shape[1]}x{first.shape[0]}"
        )
    return cal
