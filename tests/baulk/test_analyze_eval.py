"""``benchmarks/analyze_eval.py --tracks``: an earlier run's tracks, replayed."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from baulk.commands.eval import clip_seen_ends, compare
from baulk.pipeline import Analysis, frames_from_truth

_SPEC = importlib.util.spec_from_file_location(
    "analyze_eval", Path(__file__).parents[2] / "benchmarks" / "analyze_eval.py")
assert _SPEC is not None and _SPEC.loader is not None
analyze_eval = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(analyze_eval)

SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"
CLIPS = sorted(p.parent for p in SAMPLES.glob("*/truth.json"))


def test_replayed_tracks_give_the_figures_of_the_tracks_themselves(
        tmp_path: Path) -> None:
    if not CLIPS:
        pytest.skip("no sample clip")
    clip = CLIPS[0]
    frames = list(frames_from_truth(clip))
    # the truth's tracks written as `baulk analyze` writes tracks.csv (rows
    # numbered from 1), and its strokes.json's frame count
    run = tmp_path / clip.name
    run.mkdir()
    with open(run / "tracks.csv", "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["frame", "id", "kind", "x_mm", "y_mm", "visible", "conf"])
        for bf in frames:
            for j, tid in enumerate(bf.ids):
                out.writerow([bf.frame + 1, int(tid), bf.kinds[j],
                              repr(float(bf.xy_mm[j, 0])),
                              repr(float(bf.xy_mm[j, 1])),
                              int(bf.visible[j]), repr(float(bf.confidence[j]))])
    (run / "strokes.json").write_text(json.dumps({"frames": len(frames)}))

    fig, _ = analyze_eval._analyze_tracks(clip, run, calls=False)

    direct = Analysis(analyze_eval._variant(clip), fps=30.0)
    for bf in frames:
        direct.feed(bf)
    direct.finish()
    truth = json.loads((clip / "truth.json").read_text())
    expected = json.loads((clip / "expected_score.json").read_text())["state"]
    want = compare([s.to_json() for s in direct.strokes], direct.state.to_json(),
                   truth, expected, clip_seen_ends(clip, truth))
    assert fig.summary() == want.summary()
    assert fig.summary()["strokes_f1"] == 1.0 and fig.summary()["scores_equal"] == "1/1"
