"""Speed of ball tracking on 1080p footage, on one core: frames per second with
decode excluded (tracking only) and with decode, and where the time goes.

Usage::

    .venv/bin/python benchmarks/vision_speed.py [CLIP_DIR] [--frames N]

CLIP_DIR is a ``baulk synth`` clip (default: the first of ``sample_videos/``). The
frames are decoded first (timed), then run through ``vision.pipeline.Pipeline``
with OpenCV, onnxruntime and BLAS held to one thread; ``cProfile`` splits the
tracking time by stage (change test, cloth model, foreground map, circle fits,
classifier, tracker).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sim.scenes import clip_calibration  # noqa: E402
from vision.pipeline import Pipeline  # noqa: E402

STAGES = {
    "change test (which regions moved)": ("pipeline.py", "_regions"),
    "quarter-scale grey for the change test": ("pipeline.py", "_small"),
    "cloth model (first frame)": ("cloth.py", "learn"),
    "foreground map": ("cloth.py", "foreground"),
    "candidates + circle fits": ("detect.py", "fit_circles"),
    "highlight seeds (clusters)": ("detect.py", "_add_highlight_seeds"),
    "classifier (patches + model)": ("identify.py", "classify"),
    "kind constraint": ("identify.py", "constrain_kinds"),
    "image -> table mapping": ("geometry.py", "to_table"),
    "tracker (Kalman + assignment)": ("track.py", "update"),
}


def main(argv: list[str] | None = None) -> int:
    """Print fps with and without decode and the time per stage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clip", nargs="?", type=Path)
    parser.add_argument("--frames", type=int, default=150)
    args = parser.parse_args(argv)
    import warnings

    warnings.simplefilter("ignore", RuntimeWarning)
    cv2.setNumThreads(1)
    clip = args.clip or sorted(p for p in (ROOT / "sample_videos").iterdir()
                               if (p / "calibration.json").is_file())[0]
    cal = clip_calibration(clip / "calibration.json")
    cap = cv2.VideoCapture(str(clip / "video.mp4"))
    frames = []
    t0 = time.perf_counter()
    while len(frames) < args.frames:
        ok, im = cap.read()
        if not ok:
            break
        frames.append(im)
    t_decode = time.perf_counter() - t0
    cap.release()
    n = len(frames)
    h, w = frames[0].shape[:2]
    pipe = Pipeline(cal)
    try:
        pipe.detector.classifier.session.set_providers(["CPUExecutionProvider"])
    except AttributeError:
        pass
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    for i, im in enumerate(frames):
        pipe.process(im, i)
    prof.disable()
    t_track = time.perf_counter() - t0
    print(f"clip {clip.name}: {n} frames of {w}x{h}, one thread; classifier: "
          f"{pipe.classifier_description}")
    print(f"searches: {pipe.frames_full} full, {pipe.frames_partial} partial, "
          f"{pipe.frames_skipped} skipped (nothing moved)")
    print(f"decode: {1000 * t_decode / n:.1f} ms/frame")
    print(f"tracking only (decode excluded): {n / t_track:.1f} fps "
          f"({1000 * t_track / n:.1f} ms/frame)")
    print(f"with decode: {n / (t_track + t_decode):.1f} fps")
    stats = pstats.Stats(prof)
    total = t_track
    print("where the tracking time goes (cumulative, overlapping stages):")
    for label, (fname, func) in STAGES.items():
        cum = sum(v[3] for k, v in stats.stats.items()  # type: ignore[attr-defined]
                  if k[0].endswith(fname) and k[2] == func)
        print(f"  {label:<40s} {1000 * cum / n:7.1f} ms/frame "
              f"({100 * cum / total:4.1f}%)")
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main())
