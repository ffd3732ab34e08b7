"""Automatic calibration on rendered frames with known truth.

Usage: ``.venv/bin/python benchmarks/calibration_eval.py [N_PER_VIEW] [SEED]``.
Prints, per view (overhead, broadcast): success rate, RMS and worst error (mm) of
table points (spots, corners, a grid over the bed) mapped image -> table through
the calibration, and any wrong answers (> 50 mm). Frames come from
``calibration.synth`` (a small OpenCV stand-in renderer).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from calibration.auto import auto_calibrate
from calibration.mapping import CalibrationError
from calibration.synth import random_frame
from calibration.table import OFFICIAL


def table_points() -> np.ndarray:
    """(N, 2) mm: spots, corners and a 9 x 5 grid over the bed."""
    hl, hw = OFFICIAL.half_length, OFFICIAL.half_width
    grid = [(x, y) for x in np.linspace(-hl, hl, 9) for y in np.linspace(-hw, hw, 5)]
    return np.array(list(OFFICIAL.spots.values()) + grid, dtype=np.float64)


def main(n: int = 100, seed: int = 0) -> int:
    """Run the evaluation; returns 1 if any wrong answer (> 50 mm) was given."""
    pts = table_points()
    p3 = np.column_stack([pts, np.zeros(len(pts))])
    wrong_total = 0
    for view in ("overhead", "broadcast"):
        errors, failures, wrong, times = [], 0, 0, []
        worst = 0.0
        for i in range(n):
            frame = random_frame(
                seed * 100000 + i + (50000 if view == "broadcast" else 0),
                view,
                OFFICIAL,
            )
            img_pts = frame.pose.project(p3)
            t0 = time.perf_counter()
            try:
                cal = auto_calibrate(frame.image)
            except CalibrationError:
                failures += 1
                continue
            finally:
                times.append(time.perf_counter() - t0)
            err = np.linalg.norm(cal.image_to_table(img_pts) - pts, axis=1)
            rms = float(np.sqrt(np.mean(err**2)))
            worst = max(worst, float(err.max()))
            if err.max() > 50:
                wrong += 1
                print(f"  {view} frame {i}: WRONG, max error {err.max():.0f} mm")
            errors.append(rms)
        ok = n - failures
        rms_all = float(np.sqrt(np.mean(np.square(errors)))) if errors else float("nan")
        print(
            f"{view:9s}: success {ok}/{n} ({100 * ok / n:.1f}%), RMS {rms_all:.2f} mm, "
            f"median frame RMS {np.median(errors) if errors else float('nan'):.2f} mm, "
            f"worst point {worst:.1f} mm, wrong (>50 mm) {wrong}, "
            f"median time {1000 * np.median(times):.0f} ms"
        )
        wrong_total += wrong
    return 1 if wrong_total else 0


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    sys.exit(main(*args))
