"""Run ``baulk analyze`` and ``baulk eval`` over sim clip folders; print the figures.

Usage::

    .venv/bin/python benchmarks/analyze_eval.py CLIP_DIR [CLIP_DIR ...] \\
        [--out /tmp/analyze_eval] [--cache DIR] [--tracks DIR] [--json]

Each CLIP_DIR is a ``baulk synth`` folder (``video.mp4``, ``calibration.json``,
``truth.json``, ``expected_score.json``). By default each clip is analysed by the
``baulk analyze`` command (one process at a time) and scored by ``baulk eval``;
one row per clip and a total row are printed (issue 6's figures). ``s/seen e<=2``
counts the strokes whose start and end are within 2 frames when each true end is
taken where the balls stopped moving (``baulk.commands.eval.seen_ends``: a ball
spinning on the spot, which the simulator's truth counts, is still to a camera).

``--cache DIR`` is for development of tracking and stroke/event logic: the
detection half of the vision pipeline (and the calibrated-view check) is run once
per clip and stored in ``DIR``; later runs replay it through the tracker, the
segmenter, the event detector and the rules engine in-process, which is many times
faster. Where detection looked was decided by the tracker of the code that
built the cache; figures for a resolve note must come from the default mode.

``--tracks DIR`` replays the ``tracks.csv`` of an earlier run of each clip
(``DIR/<clip name>``, as ``--out`` wrote it) through the segmenter, the event
detector and the rules engine of the code now: how a change after the tracker
does on tracks already made, in seconds a clip.

``--auto-calibration`` runs ``baulk analyze`` without ``--calibration``: the table
is calibrated from the first frame, as a user without a calibration file would.

Each clip is refereed by the rules it was made with (``baulk synth --variant``,
read from its ``expected_score.json``), given as ``baulk analyze --variant``.

The referee's calls (the colours nominated, which footage cannot show) are given
to ``baulk analyze --calls`` as a referee would give them: the clip's
``calls.jsonl``, or, for clips made before it was written, the same calls taken
from ``truth.json``. ``--no-calls`` leaves them out.
"""

from __future__ import annotations

import argparse
import csv
import json
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from baulk.commands.eval import (  # noqa: E402
    Figures,
    clip_seen_ends,
    compare,
    evaluate,
)

COLUMNS = ("strokes_f1", "start_end_within_2", "start_seen_end_within_2",
           "start_abs_error_max",
           "end_abs_error_max", "first_contact_accuracy", "pots_f1",
           "cue_ball_pots_found", "off_table_found", "off_table_false",
           "scores_equal")
HEAD = ("strokes F1", "s/e<=2", "s/seen e<=2", "start err", "end err",
        "1st contact", "pots F1",
        "cue pots", "off", "off false", "score")


def _calls_file(clip: Path, spare: Path) -> Path:
    """The referee's calls of a clip: its ``calls.jsonl``, or, for a clip made
    before that was written, the same calls from its truth, written to
    ``spare``."""
    from sim.truth import referee_calls

    path = clip / "calls.jsonl"
    if path.is_file():
        return path
    calls = referee_calls(json.loads((clip / "truth.json").read_text())["strokes"])
    spare.write_text("".join(json.dumps(c) + "\n" for c in calls))
    return spare


def _variant(clip: Path) -> str:
    """The rules a clip was refereed by (its ``expected_score.json``), given
    to ``baulk analyze`` as a user would: ``wpbsa`` when it does not say."""
    exp = clip / "expected_score.json"
    state = json.loads(exp.read_text()).get("state") if exp.is_file() else None
    return str((state or {}).get("variant") or "wpbsa")


def _analyze_cli(clip: Path, out: Path, auto: bool = False,
                 calls: bool = True) -> float:
    """Run ``baulk analyze`` on a clip; seconds taken.

    With ``auto`` the table is calibrated from the footage (no ``--calibration``);
    with ``calls`` the referee's calls are given.
    """
    t0 = time.perf_counter()
    cal = [] if auto else ["--calibration", str(clip / "calibration.json")]
    extra = []
    if calls:
        path = _calls_file(clip, out.with_name(f"{out.name}.calls.jsonl"))
        extra = ["--calls", str(path)]
    cmd = [sys.executable, "-m", "baulk.cli", "analyze", str(clip / "video.mp4"),
           *cal, *extra, "--variant", _variant(clip), "-o", str(out), "--quiet"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{clip}: baulk analyze failed:\n{proc.stderr[-2000:]}")
    return time.perf_counter() - t0


def _detections(clip: Path, cache: Path) -> list[tuple[bool, Any, Any]]:
    """Per frame ``(view, regions, detections)``, from the cache or computed."""
    path = cache / f"{clip.name}.pkl"
    if path.is_file():
        with open(path, "rb") as fh:
            return pickle.load(fh)
    import cv2

    from baulk.pipeline import ViewCheck
    from sim.scenes import clip_calibration
    from vision.pipeline import Pipeline

    cal = clip_calibration(clip / "calibration.json")
    cap = cv2.VideoCapture(str(clip / "video.mp4"))
    ok, image = cap.read()
    pipe = Pipeline(cal)
    check = ViewCheck(cal, image)
    out = []
    i = 0
    while ok:
        view = check(image)
        regions, dets = pipe.detect(image, i) if view else (None, None)
        pipe.feed(i, regions, dets, view)  # where to look depends on the tracks
        out.append((view, regions, dets))
        i += 1
        ok, image = cap.read()
    cap.release()
    cache.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        pickle.dump(out, fh)
    return out


def _analyze_cached(clip: Path, cache: Path, calls: bool = True
                    ) -> tuple[Figures, float]:
    """Replay cached detections through tracking, strokes, events and rules."""
    from baulk.calls import read_calls
    from baulk.pipeline import Analysis, frame_from_rows
    from sim.scenes import clip_calibration
    from vision.pipeline import Pipeline

    frames = _detections(clip, cache)
    t0 = time.perf_counter()
    cal = clip_calibration(clip / "calibration.json")
    pipe = Pipeline(cal)
    given = read_calls(_calls_file(clip, cache / f"{clip.name}.calls.jsonl")) \
        if calls else []
    analysis = Analysis(_variant(clip), spec=cal.spec, fps=30.0, calls=given)
    for i, (view, regions, dets) in enumerate(frames):
        for f, rows in pipe.feed(i, regions, dets, view):
            analysis.feed(frame_from_rows(rows or [], f, rows is not None))
            analysis.steer(pipe.tracker)
    for f, rows in pipe.flush():
        analysis.feed(frame_from_rows(rows or [], f, rows is not None))
    return _finish(analysis, clip), time.perf_counter() - t0


def _analyze_tracks(clip: Path, run: Path, calls: bool = True
                    ) -> tuple[Figures, float]:
    """Replay the ``tracks.csv`` of an earlier ``baulk analyze`` of the clip
    (``run``: its output folder) through strokes, events and rules: the
    figures the code now gives on those tracks. A frame without rows had no
    calibrated view."""
    from baulk.calls import read_calls
    from baulk.pipeline import Analysis
    from sim.scenes import clip_calibration
    from vision.strokes import BallFrame

    t0 = time.perf_counter()
    rows: dict[int, list[dict[str, str]]] = {}
    with open(run / "tracks.csv", newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            rows.setdefault(int(r["frame"]) - 1, []).append(r)
    frames = json.loads((run / "strokes.json").read_text())["frames"]
    cal = clip_calibration(clip / "calibration.json")
    given = read_calls(_calls_file(clip, run.with_name(f"{run.name}.calls.jsonl"))) \
        if calls else []
    analysis = Analysis(_variant(clip), spec=cal.spec, fps=30.0, calls=given)
    for f in range(max(frames, max(rows, default=-1) + 1)):
        rs = rows.get(f)
        analysis.feed(BallFrame.no_view(f) if rs is None else BallFrame(
            f, np.array([int(r["id"]) for r in rs]), tuple(r["kind"] for r in rs),
            np.array([[float(r["x_mm"]), float(r["y_mm"])] for r in rs]),
            np.array([r["visible"] == "1" for r in rs]),
            np.array([float(r["conf"]) for r in rs])))
    return _finish(analysis, clip), time.perf_counter() - t0


def _finish(analysis: Any, clip: Path) -> Figures:
    """Close ``analysis`` (a ``baulk.pipeline.Analysis`` fed every frame of the
    clip) and compare what it found with the clip's truth."""
    analysis.finish()
    strokes = [s.to_json() for s in analysis.strokes]
    truth = json.loads((clip / "truth.json").read_text())
    exp = clip / "expected_score.json"
    expected = json.loads(exp.read_text()).get("state") if exp.is_file() else None
    return compare(strokes, analysis.state.to_json(), truth, expected,
                   clip_seen_ends(clip, truth))


def _row(name: str, s: dict[str, Any], secs: float | None) -> str:
    cells = [f"{name:<18}"] + [f"{s[c]!s:>11}" for c in COLUMNS]
    if secs is not None:
        cells.append(f"{secs:7.1f}s")
    return " ".join(cells)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("clips", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, default=Path("/tmp/analyze_eval"))
    ap.add_argument("--cache", type=Path, help="replay cached detections (dev)")
    ap.add_argument("--tracks", type=Path, metavar="DIR",
                    help="replay the tracks.csv of an earlier run (DIR/CLIP_NAME, "
                    "as --out wrote them) through strokes, events and rules")
    ap.add_argument("--auto-calibration", action="store_true",
                    help="let baulk analyze calibrate from the footage instead of "
                    "giving it the clip's true camera")
    ap.add_argument("--no-calls", action="store_true",
                    help="do not give the referee's calls (nominations)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true", help="print mistakes")
    args = ap.parse_args(argv)
    total = Figures()
    print(" ".join([f"{'clip':<18}"] + [f"{h:>11}" for h in HEAD]))
    results = {}
    for clip in args.clips:
        name = clip.resolve().name
        if name == "video.mp4" or clip.is_file():
            clip, name = clip.parent, clip.parent.name
        if args.tracks is not None:
            fig, secs = _analyze_tracks(clip, args.tracks / name, not args.no_calls)
        elif args.cache is not None:
            fig, secs = _analyze_cached(clip, args.cache, not args.no_calls)
        else:
            out = args.out / name
            args.out.mkdir(parents=True, exist_ok=True)
            secs = _analyze_cli(clip, out, args.auto_calibration,
                                not args.no_calls)
            fig = evaluate(out, clip)
        total.add(fig)
        s = fig.summary()
        results[name] = s | {"mistakes": fig.mistakes, "seconds": round(secs, 1)}
        print(_row(name, s, secs), flush=True)
        if args.verbose:
            for m in fig.mistakes:
                print(f"    {m}")
    print(_row("TOTAL", total.summary(), None))
    if args.json:
        print(json.dumps(results | {"total": total.summary()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
