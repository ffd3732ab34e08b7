"""Automatic calibration on rendered frames with known truth.

Usage::

    .venv/bin/python benchmarks/calibration_eval.py [-n N_PER_VIEW] [--seed S]
        [--jobs J] [--cache DIR] [--views overhead,broadcast] [-v]

Frames come from the project's renderer (``sim/``, see ``tests/calibration/frames.py``):
random camera poses, lighting, noise, balls, and for the broadcast view a player,
a cue and a score bar. For each view it prints the success rate, the RMS over the
successful frames of the errors of table points (spots, corners, a 9 x 5 grid over
the bed) mapped image -> table through the calibration, the worst point error, and
the wrong answers (a success with a point off by more than 50 mm). Exit status 1
when any wrong answer was given.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.auto import CORNER_ORDER, auto_calibrate, nose_corners_px
from calibration.mapping import CalibrationError
from calibration.table import OFFICIAL
from tests.calibration.frames import (
    VIEWS,
    seen_px,
    truth_frame,
    truth_points,
)

WRONG_MM = 50.0


def evaluate(args: tuple[str, int, int, str | None, bool]) -> dict:
    """Calibrate one frame; the errors (mm) or the failure message."""
    cv2.setNumThreads(1)
    view, index, seed, cache, refine_lines = args
    frame = truth_frame(view, index, seed, cache=Path(cache) if cache else None)
    pts = truth_points()
    px = seen_px(frame, pts)
    t0 = time.perf_counter()
    try:
        cal = auto_calibrate(frame.image, refine_lines=refine_lines)
    except CalibrationError as error:
        return {
            "view": view,
            "index": index,
            "ok": False,
            "why": str(error),
            "s": time.perf_counter() - t0,
        }
    seconds = time.perf_counter() - t0
    err = np.linalg.norm(cal.image_to_table(px) - pts, axis=1)
    err = np.where(np.isfinite(err), err, 1e9)
    corners = np.array([OFFICIAL.corners[n] for n in CORNER_ORDER])
    true_c = frame.camera.project_cloth(corners, 37.0)
    found = nose_corners_px(cal)
    corner_px = [float(np.linalg.norm(found[n] - true_c[i])) for i, n in
                 enumerate(CORNER_ORDER)]
    return {
        "view": view,
        "index": index,
        "ok": True,
        "rms": float(np.sqrt(np.mean(err**2))),
        "max": float(err.max()),
        "corner_px": corner_px,
        "s": seconds,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the evaluation; returns 1 if any wrong answer (> 50 mm) was given."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=100, help="frames per view (100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", type=int, default=0, help="first frame index")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", default=None, help="folder for rendered frames")
    parser.add_argument("--views", default=",".join(VIEWS))
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument(
        "--refine", action="store_true", help="auto_calibrate(refine_lines=True)"
    )
    args = parser.parse_args(argv)
    views = [v for v in args.views.split(",") if v]
    tasks = [
        (v, i, args.seed, args.cache, args.refine)
        for v in views
        for i in range(args.start, args.start + args.n)
    ]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(evaluate, tasks, chunksize=1))
    else:
        results = [evaluate(t) for t in tasks]
    wrong_total = 0
    for view in views:
        rows = [r for r in results if r["view"] == view]
        good = [r for r in rows if r["ok"]]
        wrong = [r for r in good if r["max"] > WRONG_MM]
        for r in rows:
            if args.verbose or (r["ok"] and r["max"] > WRONG_MM):
                if r["ok"]:
                    tag = "WRONG" if r["max"] > WRONG_MM else "ok"
                    print(
                        f"  {view} {r['index']}: {tag} rms {r['rms']:.1f} max "
                        f"{r['max']:.1f} mm corners px "
                        + " ".join(f"{c:.1f}" for c in r["corner_px"])
                    )
                else:
                    print(f"  {view} {r['index']}: failed: {r['why']}")
        n = len(rows)
        rms = (
            math.sqrt(float(np.mean([r["rms"] ** 2 for r in good])))
            if good
            else math.nan
        )
        worst = max((r["max"] for r in good), default=math.nan)
        med = float(np.median([r["rms"] for r in good])) if good else math.nan
        p95 = float(np.percentile([r["rms"] for r in good], 95)) if good else math.nan
        t_med = 1000 * float(np.median([r["s"] for r in rows]))
        print(
            f"{view:9s}: {n} frames, success {len(good)}/{n} "
            f"({100 * len(good) / max(n, 1):.1f}%), RMS {rms:.2f} mm (median frame "
            f"{med:.2f}, 95th pct {p95:.2f}), worst point {worst:.1f} mm, "
            f"wrong (>{WRONG_MM:.0f} mm) {len(wrong)}, median time {t_med:.0f} ms"
        )
        wrong_total += len(wrong)
    return 1 if wrong_total else 0


if __name__ == "__main__":
    sys.exit(main())
