"""Frames per second of ``baulk analyze`` on a 1080p clip, on one core.

Prints the fps of the whole command (decode, view check, detection, tracking,
strokes, events, rules, tracks.csv) and of decoding the same clip alone (the
limit), and their ratio. The process is pinned to one CPU and every library is
told to use one thread.

    .venv/bin/python benchmarks/analyze_speed.py [VIDEO --calibration CAL] [--frames N]

Default: the first 150 frames of the committed overhead sample clip.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _clip(src: Path, dst: Path, frames: int) -> int:
    """Copy the first ``frames`` frames of ``src`` to ``dst`` (mp4v)."""
    cap = cv2.VideoCapture(str(src))
    fps = cap.get(cv2.CAP_PROP_FPS) or 30.0
    out = None
    n = 0
    while n < frames:
        ok, img = cap.read()
        if not ok:
            break
        if out is None:
            out = cv2.VideoWriter(str(dst), cv2.VideoWriter_fourcc(*"mp4v"), fps,
                                  (img.shape[1], img.shape[0]))
        out.write(img)
        n += 1
    cap.release()
    if out is not None:
        out.release()
    return n


def decode_fps(video: Path) -> tuple[float, int]:
    """Frames per second of decoding ``video`` alone."""
    t0 = time.perf_counter()
    cap = cv2.VideoCapture(str(video))
    n = 0
    while cap.grab():
        cap.retrieve()
        n += 1
    cap.release()
    return n / (time.perf_counter() - t0), n


def main() -> int:
    """Run the benchmark; prints one line per figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sample = ROOT / "sample_videos" / "overhead_seed1"
    parser.add_argument("video", nargs="?", type=Path, default=sample / "video.mp4")
    parser.add_argument("--calibration", type=Path, default=sample / "calibration.json")
    parser.add_argument("--frames", type=int, default=150)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    from baulk.cli import main as baulk_main

    with tempfile.TemporaryDirectory() as tmp:
        video = Path(tmp) / "clip.mp4"
        n = _clip(args.video, video, args.frames)
        if n == 0:
            print(f"{args.video}: no frames", file=sys.stderr)
            return 2
        cap = cv2.VideoCapture(str(video))
        size = (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
        cap.release()
        dec, _ = decode_fps(video)
        t0 = time.perf_counter()
        code = baulk_main(["analyze", str(video), "--calibration",
                           str(args.calibration), "-o", str(Path(tmp) / "out"),
                           "--quiet"])
        elapsed = time.perf_counter() - t0
        if code != 0:
            return code
    fps = n / elapsed
    print(f"clip: {n} frames {size[0]}x{size[1]} from {args.video}")
    print(f"decode alone: {dec:.1f} fps (one core)")
    print(f"baulk analyze: {fps:.2f} fps (one core, start-up included)")
    print(f"ratio analyze/decode: {fps / dec:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
