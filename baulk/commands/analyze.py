"""``baulk analyze``: a match video in, the refereed frame out."""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import tempfile
import time
import warnings
from collections import deque
from pathlib import Path
from typing import Any

from baulk.calls import read_calls
from baulk.errors import UserError
from baulk.video import calibration_for, open_video
from calibration.table import TABLES

GOLF_MAX_PLAYERS = 6
"""Snooker golf with snooker balls: one colour per player (yellow ... black)."""


def add_parser(subparsers: Any) -> None:
    """Register ``baulk analyze``."""
    parser = subparsers.add_parser(
        "analyze",
        help="referee a match video: strokes, events, fouls and the score",
        description=(
            "Track the balls of VIDEO, cut the tracks into strokes, find each "
            "stroke's events and referee them. Writes OUTDIR/match.jsonl (the "
            "match log), summary.json (as 'baulk score --json'), tracks.csv, "
            "strokes.json, report.html and, with --overlay, overlay.mp4. Without "
            "--calibration the table is found automatically."
        ),
    )
    parser.add_argument("video", metavar="VIDEO")
    parser.add_argument("--calibration", metavar="table.json")
    parser.add_argument("--table", choices=list(TABLES), default="official")
    parser.add_argument("--variant", default="wpbsa",
                        choices=("wpbsa", "amateur", "american", "golf"))
    parser.add_argument("--players", nargs="+", metavar="NAME",
                        default=["Player 1", "Player 2"],
                        help="names in order of play: two (four: two sides); "
                        f"for golf one to {GOLF_MAX_PLAYERS}, the first playing "
                        "the yellow, the second the green, and so on")
    parser.add_argument("--reds", type=int, choices=(6, 10, 15),
                        help="reds in the rack (default: counted)")
    parser.add_argument("--calls", metavar="calls.jsonl",
                        help="the referee's calls a camera cannot see (a colour "
                        "nominated, a push stroke, a miss), one JSON object a line "
                        'with its frame: {"frame": 412, "nominated": "brown"}')
    parser.add_argument("-o", "--output", required=True, metavar="OUTDIR")
    parser.add_argument("--overlay", action="store_true",
                        help="also write overlay.mp4")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)


def check_players(variant: str, players: list[str]) -> tuple[str, ...]:
    """The players of ``--players`` for ``variant``.

    Raises:
        UserError: Too many or too few names for the variant.
    """
    if variant == "golf":
        if not 1 <= len(players) <= GOLF_MAX_PLAYERS:
            raise UserError(f"--players: golf takes 1 to {GOLF_MAX_PLAYERS} names "
                            f"(one colour each), not {len(players)}")
    elif len(players) not in (2, 4):
        raise UserError(f"--players: {variant} takes two names (four: two sides), "
                        f"not {len(players)}")
    return tuple(players)


def _progress(done: int, total: int, strokes: int, t0: float) -> None:
    width = 30
    frac = min(done / total, 1.0) if total > 0 else 0.0
    bar = "#" * int(width * frac)
    rate = done / max(time.perf_counter() - t0, 1e-6)
    label = f"{done}/{total}" if total > 0 else f"{done}"
    print(f"\r[{bar:<{width}}] {label} frames, {strokes} strokes, {rate:.1f} fps",
          end="", file=sys.stderr, flush=True)


def _replace_dir(tmp: Path, out: Path) -> None:
    """Move ``tmp`` to ``out``, replacing an earlier output folder."""
    old = None
    if out.exists():
        if not out.is_dir():
            raise UserError(f"{out}: exists and is not a folder")
        old = out.with_name(f".{out.name}.old-{time.time_ns()}")
        out.rename(old)
    tmp.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def run(args: argparse.Namespace) -> int:
    """Carry out ``baulk analyze``."""
    import cv2

    from baulk.overlay import Overlay
    from baulk.pipeline import Analysis, CameraViews, fps_of, frame_from_rows
    from baulk.report import write_report
    from vision.pipeline import CSV_HEADER, Pipeline

    players = check_players(args.variant, args.players)
    calls = read_calls(args.calls) if args.calls else []
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: exists and is not a folder")
    for parent in out.parents:
        if parent.exists() and not parent.is_dir():
            raise UserError(f"{parent}: exists and is not a folder")
    capture, first = open_video(Path(args.video))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        cal = calibration_for(args.calibration, args.table, first)
        fps = fps_of(capture)
        total = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            pipeline = Pipeline(cal)
        for w in caught:
            print(f"baulk analyze: warning: {w.message}", file=sys.stderr)
        analysis = Analysis(args.variant, players, cal.spec, fps, args.reds,
                            calls)
        views = CameraViews(cal, first, fps)
        overlay = Overlay(fps) if args.overlay else None
        writer = None
        if overlay is not None:
            h, w = first.shape[:2]
            writer = cv2.VideoWriter(str(tmp / "overlay.mp4"),
                                     cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
            if not writer.isOpened():
                raise UserError("cannot write overlay.mp4 (no mp4v encoder)")
        t0 = time.perf_counter()
        index = 0
        with open(tmp / "tracks.csv", "w", newline="", encoding="utf-8") as fh:
            out_csv = csv.writer(fh, lineterminator="\n")
            out_csv.writerow(CSV_HEADER)
            image = first
            state = analysis.state.to_json()
            held: deque[tuple[Any, bool]] = deque()  # images awaiting their rows

            def emit(ready: list[tuple[int, list[Any] | None]]) -> None:
                nonlocal state
                for f, rows in ready:
                    shown, view = held.popleft()
                    rows = analysis.shown(rows or [])
                    out_csv.writerows(r.as_csv() for r in rows)
                    done = analysis.feed(frame_from_rows(rows, f, view))
                    analysis.steer(pipeline.tracker)
                    if done or f == 0:
                        state = analysis.state.to_json()
                    if overlay is not None and writer is not None:
                        for result in done:
                            overlay.stroke_done(f, result, list(players))
                        # (again: a stroke closed by this frame may have
                        # taken a red as knocked in)
                        overlay.draw(shown, f, analysis.shown(rows), state, view)
                        writer.write(shown)

            while image is not None:
                view, new_cal = views(image, index)
                if new_cal is not None:
                    pipeline.recalibrate(new_cal)
                    if not args.quiet:
                        print(f"\nbaulk analyze: frame {index}: "
                              f"{views.changes[-1].message}", file=sys.stderr)
                held.append((image if overlay is not None else None, view))
                emit(pipeline.step(image, index, view))
                index += 1
                if not args.quiet and (index % 10 == 0 or index == total):
                    _progress(index, total, len(analysis.strokes), t0)
                ok, image = capture.read()
                if not ok:
                    image = None
            emit(pipeline.flush())
        analysis.finish()
        if writer is not None:
            writer.release()
        if not args.quiet:
            print(file=sys.stderr)
        if total and index < total * 0.9:
            raise UserError(f"{args.video}: decoding stopped at frame {index} of "
                            f"{total}")
        unused = analysis.calls.unused
        if unused:
            listed = ", ".join(f"{k} at frame {f}" for f, k in unused)
            print(f"baulk analyze: warning: {args.calls}: fits no stroke, not "
                  f"used: {listed}", file=sys.stderr)
        state = analysis.state.to_json()
        (tmp / "match.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in analysis.log), encoding="utf-8")
        (tmp / "summary.json").write_text(json.dumps(state, indent=1) + "\n",
                                          encoding="utf-8")
        strokes = {
            "video": str(args.video), "fps": fps, "frames": index,
            "strokes": [s.to_json() for s in analysis.strokes],
            "handling": [
                {"kind": str(h.kind), "frame": h.frame, "ball": h.ball,
                 "xy_mm": h.xy_mm} for h in analysis.handling
            ],
            "view_changes": [c.to_json() for c in views.changes],
        }
        (tmp / "strokes.json").write_text(json.dumps(strokes, indent=1) + "\n",
                                          encoding="utf-8")
        write_report(tmp / "report.html", analysis, cal.spec, str(args.video))
        _replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        capture.release()
    scores = " - ".join(str(s) for s in state["scores"])
    print(f"{index} frames, {len(analysis.strokes)} strokes, score {scores}; "
          f"wrote {out}/", file=sys.stderr)
    return 0
