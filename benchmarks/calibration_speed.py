"""Time automatic calibration of 1080p frames on one core.

Usage: ``.venv/bin/python benchmarks/calibration_speed.py [REPEATS]``; uses the real
frames in ``../shared/real`` when present, else rendered ones.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.auto import auto_calibrate
from tests.calibration.frames import truth_frame


def main(repeats: int = 10) -> int:
    """Print the median time per frame of each test frame."""
    cv2.setNumThreads(1)
    real = Path(__file__).resolve().parents[1].parent / "shared" / "real"
    frames = {p.name: cv2.imread(str(p)) for p in sorted(real.glob("*.png"))}
    if not frames:
        frames = {
            f"rendered-{v}": truth_frame(v, 1).image
            for v in ("overhead", "broadcast")
        }
    for name, image in frames.items():
        auto_calibrate(image)  # warm-up
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            auto_calibrate(image)
            times.append(time.perf_counter() - t0)
        times.sort()
        print(
            f"{name}: median {1000 * times[len(times) // 2]:.0f} ms, "
            f"worst {1000 * times[-1]:.0f} ms per {image.shape[1]}x{image.shape[0]} "
            "frame (one core)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(*[int(a) for a in sys.argv[1:2]]))
