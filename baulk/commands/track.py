"""``baulk track``: every ball in every frame of a video, in table millimetres."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

from baulk.errors import UserError
from baulk.video import calibration_for, open_video
from calibration.table import TABLES


def add_parser(subparsers: Any) -> None:
    """Register ``baulk track``."""
    parser = subparsers.add_parser(
        "track",
        help="detect, identify and track the balls of a video",
        description=(
            "Track every ball of VIDEO: writes one CSV row per ball per frame "
            "(frame, id, kind, x_mm, y_mm, px, py, visible, conf and a MOT-style "
            "image box). Without --calibration the table is found automatically."
        ),
    )
    parser.add_argument("video", metavar="VIDEO")
    parser.add_argument(
        "--calibration", metavar="table.json",
        help="calibration file (baulk calibrate, or a baulk synth clip's "
        "calibration.json)",
    )
    parser.add_argument("--table", choices=list(TABLES), default="official")
    parser.add_argument("-o", "--output", required=True, metavar="tracks.csv")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def _progress(done: int, total: int) -> None:
    width = 30
    frac = done / total if total > 0 else 0.0
    bar = "#" * int(width * frac)
    label = f"{done}/{total}" if total > 0 else f"{done}"
    print(f"\r[{bar:<{width}}] {label} frames", end="", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    """Carry out ``baulk track``."""
    import cv2

    from calibration.mapping import write_atomic

    path = Path(args.video)
    capture, first = open_video(path)
    try:
        total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        cal = calibration_for(args.calibration, args.table, first)
        from vision.pipeline import CSV_HEADER, Pipeline

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pipeline = Pipeline(cal)
        for w in caught:
            print(f"baulk track: warning: {w.message}", file=sys.stderr)
        lines = [",".join(CSV_HEADER)]
        frame = first
        index = 0
        while frame is not None:
            rows = pipeline.process(frame, index)
            lines.extend(",".join(r.as_csv()) for r in rows)
            index += 1
            if not args.quiet and (index % 10 == 0 or index == total):
                _progress(index, total)
            ok, frame = capture.read()
            if not ok:
                frame = None
        if not args.quiet:
            print(file=sys.stderr)
    finally:
        capture.release()
    if total and index < total * 0.9:
        raise UserError(f"{path}: decoding stopped at frame {index} of {total}")
    write_atomic(args.output, ("\n".join(lines) + "\n").encode("utf-8"))
    print(
        f"{index} frames, {pipeline.frames_full} full searches, "
        f"{pipeline.frames_partial} partial, {pipeline.frames_skipped} skipped "
        f"(nothing moved); balls classified by {pipeline.classifier_description}; "
        f"wrote {args.output}",
        file=sys.stderr,
    )
    return 0
