"""Time automatic calibration of 1080p frames on one core.

Usage: ``.venv/bin/python benchmarks/calibration_speed.py [-r REPEATS] [--refine]
[--cache DIR]``; times the real frames in ``../shared/real`` when present and two
rendered ones (one per view), each with the self-check included.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.auto import auto_calibrate
from calibration.mapping import CalibrationError
from tests.calibration.frames import truth_frame


def main(argv: list[str] | None = None) -> int:
    """Print the median and worst time per frame of each test frame."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-r", "--repeats", type=int, default=5)
    parser.add_argument("--refine", action="store_true")
    parser.add_argument("--cache", default=None, help="folder of rendered frames")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    real = Path(__file__).resolve().parents[1].parent / "shared" / "real"
    frames = {p.name: cv2.imread(str(p)) for p in sorted(real.glob("*.png"))}
    cache = Path(args.cache) if args.cache else None
    for view in ("overhead", "broadcast"):
        frames[f"rendered-{view}-1"] = truth_frame(view, 1, cache=cache).image
    for name, image in frames.items():
        times = []
        outcome = "ok"
        for _ in range(args.repeats + 1):
            t0 = time.perf_counter()
            try:
                auto_calibrate(image, refine_lines=args.refine)
            except CalibrationError as error:
                outcome = f"failed ({error})"
            times.append(time.perf_counter() - t0)
        times = sorted(times[1:])  # the first run warms up
        print(
            f"{name}: median {1000 * times[len(times) // 2]:.0f} ms, "
            f"worst {1000 * times[-1]:.0f} ms per {image.shape[1]}x{image.shape[0]} "
            f"frame (one core, {'refine' if args.refine else 'default'} mode, "
            f"{outcome})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
