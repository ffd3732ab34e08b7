"""``baulk track``: every ball in every frame of a video, in table millimetres."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

from baulk.errors import UserError
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


def _load_calibration(path: str, load: Any) -> Any:
    """A baulk calibration file, or a ``baulk synth`` clip's ``calibration.json``
    (the truth camera)."""
    import json

    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        data = None
    if isinstance(data, dict) and isinstance(data.get("camera"), dict):
        from sim.scenes import clip_calibration

        return clip_calibration(path)
    return load(path)


def run(args: argparse.Namespace) -> int:
    """Carry out ``baulk track``."""
    import cv2

    from calibration.mapping import CalibrationError, load_calibration, write_atomic

    path = Path(args.video)
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise UserError(f"{path}: not a readable video")
        ok, first = capture.read()
        if not ok or first is None:
            raise UserError(f"{path}: no frames could be decoded (corrupt video?)")
        total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        try:
            if args.calibration:
                cal = _load_calibration(args.calibration, load_calibration)
            else:
                from calibration.auto import auto_calibrate

                cal = auto_calibrate(first, table=args.table)
        except CalibrationError as error:
            raise UserError(f"calibration: {error}") from None
        if cal.image_size != (first.shape[1], first.shape[0]):
            raise UserError(
                f"calibration is for {cal.image_size[0]}x{cal.image_size[1]} frames, "
                f"the video's are {first.shape[1]}x{first.shape[0]}"
            )
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
