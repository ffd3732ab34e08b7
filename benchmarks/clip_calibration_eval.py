"""Automatic calibration on the first frame of sim clips, against their true camera.

Usage::

    .venv/bin/python benchmarks/clip_calibration_eval.py CLIP_DIR [CLIP_DIR ...]

For each ``baulk synth`` folder: calibrates the first frame of ``video.mp4`` as
``baulk analyze`` does without ``--calibration``, and prints the RMS and worst error
(mm) of a 9 x 5 grid of ball centres over the bed mapped image -> table, or the
failure. Exit status 1 when any clip failed or erred by more than 50 mm.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.auto import auto_calibrate
from calibration.mapping import CalibrationError
from sim.scenes import clip_calibration

WRONG_MM = 50.0


def main(argv: list[str] | None = None) -> int:
    """Calibrate each clip's first frame; print one line per clip and a total."""
    clips = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not clips:
        print(__doc__)
        return 2
    rms_all: list[float] = []
    bad = 0
    for clip in clips:
        cap = cv2.VideoCapture(str(clip / "video.mp4"))
        ok, image = cap.read()
        cap.release()
        if not ok:
            print(f"{clip.name}: cannot read {clip / 'video.mp4'}")
            bad += 1
            continue
        truth = clip_calibration(clip / "calibration.json")
        kind = json.loads((clip / "truth.json").read_text())["camera_kind"]
        try:
            cal = auto_calibrate(image, truth.table)
        except CalibrationError as error:
            print(f"{clip.name} ({kind}): failed: {error}")
            bad += 1
            continue
        r = truth.spec.ball_radius
        xs, ys = np.meshgrid(np.linspace(-0.95, 0.95, 9) * truth.spec.half_length,
                             np.linspace(-0.95, 0.95, 5) * truth.spec.half_width)
        pts = np.c_[xs.ravel(), ys.ravel()]
        px = truth.table_to_image(pts, z_mm=r)
        err = np.linalg.norm(cal.ball_centres_to_table(px) - pts, axis=1)
        rms = float(np.sqrt(np.mean(err**2)))
        rms_all.append(rms)
        bad += int(err.max() > WRONG_MM)
        print(f"{clip.name} ({kind}): RMS {rms:.1f} mm, worst {err.max():.1f} mm")
    n = len(clips)
    print(f"success {len(rms_all)}/{n}; RMS over the clips "
          f"{np.sqrt(np.mean(np.square(rms_all))) if rms_all else float('nan'):.2f} mm")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
