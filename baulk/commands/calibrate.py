"""``baulk calibrate``: map a camera's frames to the table, from points or by itself."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from baulk.errors import UserError
from calibration.table import TABLES

VIDEO_SUFFIXES = {".mp4", ".mov", ".avi", ".mkv", ".m4v", ".webm", ".mpg", ".mpeg"}


def add_parser(subparsers: Any) -> None:
    """Register ``baulk calibrate``."""
    parser = subparsers.add_parser(
        "calibrate",
        help="calibrate a camera to the table (automatic, or from clicked points)",
        description=(
            "Find the camera-to-table mapping from one frame of IMAGE_OR_VIDEO: "
            "automatically, or from the point pairs in --points. Writes the "
            "calibration JSON (its 'homography' maps pixels to table-frame mm on the "
            "cloth)."
        ),
    )
    parser.add_argument("source", metavar="IMAGE_OR_VIDEO")
    parser.add_argument(
        "--points",
        metavar="FILE",
        help='JSON point pairs: {"points": {"baulk_left": [u, v], "blue": [u, v], '
        "...}} (corners, middle_left/right, spot names, jaw points) or a list of "
        '{"table_mm": [x, y], "px": [u, v]}',
    )
    parser.add_argument("--table", choices=list(TABLES), default="official")
    parser.add_argument("--frame", type=int, default=0, help="video frame index (0)")
    parser.add_argument(
        "--lens",
        metavar="LENS.json",
        help="lens intrinsics and distortion from checkerboards "
        "(calibration.lens): applied to the points and stored in the calibration",
    )
    parser.add_argument(
        "--refine",
        action="store_true",
        help="automatic mode: always refine on the whole table (cushions, baulk "
        "line, D) with lens distortion; by default only when the corners alone "
        "fail the self-check",
    )
    parser.add_argument("-o", "--output", required=True, metavar="table.json")
    parser.add_argument("--preview", metavar="preview.png")
    parser.set_defaults(run=run)


def _read_frame(path: Path, index: int) -> Any:
    """The image, or frame ``index`` of the video, at ``path`` (BGR array)."""
    import cv2

    if not path.is_file():
        raise UserError(f"{path}: no such file")
    if path.suffix.lower() not in VIDEO_SUFFIXES:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            return image
    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise UserError(f"{path}: not a readable image or video")
        if index:
            capture.set(cv2.CAP_PROP_POS_FRAMES, index)
        ok, frame = capture.read()
    finally:
        capture.release()
    if not ok or frame is None:
        raise UserError(f"{path}: cannot read frame {index}")
    return frame


def run(args: argparse.Namespace) -> int:
    """Calibrate, write the JSON (and the preview); 0 on success."""
    import cv2

    from calibration.auto import auto_calibrate
    from calibration.lens import load_lens
    from calibration.mapping import (
        CalibrationError,
        fit_points,
        parse_points,
        save_calibration,
        write_atomic,
    )
    from calibration.preview import draw_preview

    source = Path(args.source)
    image = _read_frame(source, args.frame)
    size = (image.shape[1], image.shape[0])
    try:
        lens = load_lens(args.lens) if args.lens else None
        if lens is not None and tuple(lens.image_size) != size:
            lens = lens.scaled(size)
        if args.points:
            points_path = Path(args.points)
            try:
                data = json.loads(points_path.read_text(encoding="utf-8"))
            except OSError as error:
                raise UserError(
                    f"{points_path}: cannot read: {error.strerror}"
                ) from None
            except json.JSONDecodeError as error:
                raise UserError(
                    f"{points_path}: not JSON (line {error.lineno})"
                ) from None
            img_pts, tab_pts, names = parse_points(data, args.table)
            cal = fit_points(
                img_pts, tab_pts, size, args.table, names=names, lens=lens
            )
        else:
            cal = auto_calibrate(
                image,
                args.table,
                focal_px=None if lens is None else float(lens.camera_matrix[0, 0]),
                refine_lines=args.refine,
            )
    except CalibrationError as error:
        where = args.points if args.points else source
        raise UserError(f"{where}: {error}") from None
    preview_bytes = None
    if args.preview:
        suffix = Path(args.preview).suffix or ".png"
        ok, buf = cv2.imencode(suffix, draw_preview(image, cal))
        if not ok:
            raise UserError(f"{args.preview}: cannot encode a {suffix} image")
        preview_bytes = buf.tobytes()
    for target in [args.output] + ([args.preview] if args.preview else []):
        parent = Path(target).parent
        if not parent.is_dir():
            raise UserError(f"{target}: folder {parent} does not exist")
    try:
        save_calibration(cal, args.output)
        if preview_bytes is not None:
            write_atomic(args.preview, preview_bytes)
    except OSError as error:
        raise UserError(f"cannot write output: {error}") from None
    worst = max(cal.residuals_mm, default=0.0)
    print(
        f"calibrated {source.name} ({cal.method}, {cal.table} table): "
        f"RMS {cal.rms_mm:.1f} mm, worst {worst:.1f} mm -> {args.output}"
    )
    return 0
