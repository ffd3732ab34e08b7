"""Benchmark: generate a 10-stroke 1080p clip and print the time (target < 180 s).

Usage: .venv/bin/python benchmarks/sim_clip.py [--strokes 10] [--camera overhead]
       [--seed 7] [--out /tmp/baulk-sim-bench]

Needs the [sim] extra (pooltool); see sim/requirements.txt.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.clip import make_clip


def main() -> int:
    """Run the benchmark; exit 1 if it takes longer than the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strokes", type=int, default=10)
    parser.add_argument("--camera", default="overhead")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=Path("/tmp/baulk-sim-bench"))
    parser.add_argument("--target-s", type=float, default=180.0)
    args = parser.parse_args()
    start = time.perf_counter()
    truth = make_clip(args.seed, args.camera, args.strokes, args.out)
    elapsed = time.perf_counter() - start
    result = {
        "strokes": len(truth["strokes"]),
        "frames": truth["frame_count"],
        "size": truth["size"],
        "seconds": round(elapsed, 1),
        "ms_per_frame": round(1000 * elapsed / truth["frame_count"], 1),
        "timing_s": truth["timing_s"],
        "video_mb": round((args.out / "video.mp4").stat().st_size / 1e6, 1),
    }
    print(json.dumps(result))
    print(
        f"{result['strokes']}-stroke {truth['size'][0]}x{truth['size'][1]} clip, "
        f"{truth['frame_count']} frames: {elapsed:.1f} s "
        f"(target < {args.target_s:.0f} s)"
    )
    return 0 if elapsed < args.target_s else 1


if __name__ == "__main__":
    sys.exit(main())
