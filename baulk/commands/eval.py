"""``baulk eval OUTDIR TRUTH_DIR``: compare ``baulk analyze`` output with sim truth."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baulk.errors import UserError
from rules.variants import golf_number

FRAME_TOL = 2
"""Start/end frame error counted as right (frames)."""

STILL_MM = 0.05
"""A ball whose centre moves less than this between two frames is still, as far
as a camera can tell (a ball spinning on the spot, which the simulator's truth
counts as moving until it stops turning, moves not at all)."""


def add_parser(subparsers: Any) -> None:
    """Register ``baulk eval``."""
    parser = subparsers.add_parser(
        "eval",
        help="compare baulk analyze output with a sim clip's truth",
        description="Compare OUTDIR (strokes.json, summary.json from baulk analyze) "
        "with TRUTH_DIR (truth.json, expected_score.json from baulk synth) and "
        "print strokes F1 and frame errors, first-contact accuracy, pots F1, "
        "cue-ball pots and off-table events found, and whether the score agrees.",
    )
    parser.add_argument("outdir", type=Path, metavar="OUTDIR")
    parser.add_argument("truth", type=Path, metavar="TRUTH_DIR")
    parser.add_argument("--json", action="store_true", help="print figures as JSON")
    parser.set_defaults(run=run)


@dataclass
class Figures:
    """Counts behind the figures of one or more clips."""

    strokes_true: int = 0
    strokes_found: int = 0
    strokes_matched: int = 0
    start_errors: list[int] = field(default_factory=list)
    end_errors: list[int] = field(default_factory=list)
    seen_errors: list[tuple[int, int]] = field(default_factory=list)
    """(start, end) errors with each true end where the balls stopped moving
    (``seen_ends``), for clips whose frames were given."""
    first_contact_right: int = 0
    pots_true: int = 0
    pots_found: int = 0
    pots_right: int = 0
    cue_pots_true: int = 0
    cue_pots_found: int = 0
    off_true: int = 0
    off_found: int = 0
    off_called: int = 0
    cushions_true: int = 0
    cushions_found: int = 0
    cushions_right: int = 0
    scores_equal: int = 0
    clips: int = 0
    mistakes: list[str] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        """Accumulate another clip's counts."""
        for k, v in other.__dict__.items():
            if isinstance(v, list):
                getattr(self, k).extend(v)
            else:
                setattr(self, k, getattr(self, k) + v)

    @staticmethod
    def _f1(true: int, found: int, right: int) -> float:
        if true == 0 and found == 0:
            return 1.0
        return 2 * right / (true + found) if true + found else 0.0

    def summary(self) -> dict[str, Any]:
        """The figures as a dict."""
        m = max(self.strokes_matched, 1)
        within = sum(1 for s, e in zip(self.start_errors, self.end_errors, strict=True)
                     if abs(s) <= FRAME_TOL and abs(e) <= FRAME_TOL)
        seen = sum(1 for s, e in self.seen_errors
                   if abs(s) <= FRAME_TOL and abs(e) <= FRAME_TOL)
        return {
            "clips": self.clips,
            "strokes_true": self.strokes_true,
            "strokes_found": self.strokes_found,
            "strokes_f1": round(self._f1(self.strokes_true, self.strokes_found,
                                         self.strokes_matched), 4),
            "start_abs_error_max": max(map(abs, self.start_errors), default=0),
            "end_abs_error_max": max(map(abs, self.end_errors), default=0),
            "start_end_within_2": f"{within}/{self.strokes_matched}",
            "start_seen_end_within_2": f"{seen}/{len(self.seen_errors)}",
            "first_contact_accuracy": round(self.first_contact_right / m, 4),
            "pots_f1": round(self._f1(self.pots_true, self.pots_found,
                                      self.pots_right), 4),
            "cue_ball_pots_found": f"{self.cue_pots_found}/{self.cue_pots_true}",
            "off_table_found": f"{self.off_found}/{self.off_true}",
            "off_table_false": self.off_called - self.off_found,
            "cushion_after_contact_f1": round(self._f1(
                self.cushions_true, self.cushions_found, self.cushions_right), 4),
            "scores_equal": f"{self.scores_equal}/{self.clips}",
        }


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise UserError(f"{path}: not valid JSON ({error})") from None


def _pots(potted: list[Any]) -> Counter[tuple[str, str | None]]:
    out: Counter[tuple[str, str | None]] = Counter()
    for p in potted:
        if isinstance(p, str):
            out[(p, None)] += 1
        else:
            out[(p["ball"], p.get("pocket"))] += 1
    return out


def _numbered(stroke: dict[str, Any]) -> dict[str, Any]:
    """A found stroke with golf balls named by number (the yellow is ``"1"``)."""
    out = dict(stroke)
    for key in ("first_contact", "off_table", "cushion_after_contact"):
        out[key] = [golf_number(b) for b in stroke.get(key) or []]
    out["potted"] = [
        golf_number(p) if isinstance(p, str) else {**p, "ball": golf_number(p["ball"])}
        for p in stroke.get("potted") or []
    ]
    return out


SCORE_KEYS = ("scores", "to_play", "ball_on", "free_ball", "frame_over", "winner",
              "current_break", "highest_break", "on_table")


def seen_ends(truth: dict[str, Any], positions_mm: np.ndarray) -> list[int]:
    """Each true stroke's end as a camera can see it: the frame after the last
    in which a ball's centre moved ``STILL_MM`` or more (its ``end_frame`` at
    the latest).

    Args:
        truth: ``truth.json`` of a sim clip.
        positions_mm: (F, N, 2 or 3) float, table mm, NaN off the table: the
            clip's ``frames.npz`` ``positions_mm``.
    """
    xy = np.asarray(positions_mm, dtype=np.float64)[..., :2]
    ends = []
    for t in truth["strokes"]:
        a, b = t["start_frame"], t["end_frame"]
        step = np.linalg.norm(np.diff(xy[a:b + 1], axis=0), axis=2)
        moved = np.flatnonzero((np.nan_to_num(step) >= STILL_MM).any(axis=1))
        # (step k moves a ball into frame a + 1 + k; still from the frame after)
        ends.append(min(b, a + 2 + int(moved[-1])) if len(moved) else b)
    return ends


def compare(strokes: list[dict[str, Any]], summary: dict[str, Any],
            truth: dict[str, Any], expected: dict[str, Any] | None,
            still_ends: list[int] | None = None) -> Figures:
    """Figures of one clip: found ``strokes`` and ``summary`` against truth;
    ``still_ends``, when given, are ``seen_ends`` of the truth."""
    fig = Figures(clips=1)
    if (expected or {}).get("variant") == "golf":
        # Snooker golf names the players' balls by number; vision sees colours.
        strokes = [_numbered(s) for s in strokes]
    true = truth["strokes"]
    fig.strokes_true = len(true)
    fig.strokes_found = len(strokes)
    used: set[int] = set()
    for k, t in enumerate(true):
        best = None
        for i, s in enumerate(strokes):
            if i in used:
                continue
            overlap = min(t["end_frame"], s["end_frame"]) - max(
                t["start_frame"], s["start_frame"])
            if overlap <= 0:
                continue
            err = abs(s["start_frame"] - t["start_frame"])
            if best is None or err < best[0]:
                best = (err, i)
        if best is None:
            fig.mistakes.append(f"stroke at {t['start_frame']} not found")
            continue
        s = strokes[best[1]]
        used.add(best[1])
        fig.strokes_matched += 1
        fig.start_errors.append(s["start_frame"] - t["start_frame"])
        fig.end_errors.append(s["end_frame"] - t["end_frame"])
        if still_ends is not None:
            fig.seen_errors.append((s["start_frame"] - t["start_frame"],
                                    s["end_frame"] - still_ends[k]))
        log = t["log"]
        if sorted(s["first_contact"]) == sorted(log["first_contact"]):
            fig.first_contact_right += 1
        else:
            fig.mistakes.append(f"stroke at {t['start_frame']}: first contact "
                                f"{s['first_contact']} (truth {log['first_contact']})")
        tp, fp = _pots(log["potted"]), _pots(s["potted"])
        fig.pots_true += sum(tp.values())
        fig.pots_found += sum(fp.values())
        fig.pots_right += sum((tp & fp).values())
        if tp != fp:
            fig.mistakes.append(f"stroke at {t['start_frame']}: pots {dict(fp)} "
                                f"(truth {dict(tp)})")
        cue_true = sum(1 for b, _ in tp if b == "white")
        fig.cue_pots_true += cue_true
        fig.cue_pots_found += min(cue_true, sum(1 for b, _ in fp if b == "white"))
        ot, of = Counter(log["off_table"]), Counter(s["off_table"])
        fig.off_true += sum(ot.values())
        fig.off_found += sum((ot & of).values())
        fig.off_called += sum(of.values())
        if ot != of:
            fig.mistakes.append(f"stroke at {t['start_frame']}: off the table "
                                f"{sorted(of.elements())} (truth "
                                f"{sorted(ot.elements())})")
        ct = set(log.get("cushion_after_contact") or [])
        cf = set(s.get("cushion_after_contact") or [])
        fig.cushions_true += len(ct)
        fig.cushions_found += len(cf)
        fig.cushions_right += len(ct & cf)
    for i, s in enumerate(strokes):
        if i not in used:
            fig.mistakes.append(f"extra stroke at {s['start_frame']}")
    if expected is not None:
        want = {k: expected.get(k) for k in SCORE_KEYS}
        got = {k: summary.get(k) for k in SCORE_KEYS}
        if want == got:
            fig.scores_equal = 1
        else:
            diff = [k for k in SCORE_KEYS if want[k] != got[k]]
            fig.mistakes.append(
                f"state differs in {diff}: scores {got['scores']} "
                f"(truth {want['scores']})")
    return fig


def evaluate(outdir: Path, truth_dir: Path) -> Figures:
    """Figures of one analyze output folder against one sim clip folder."""
    for p in (outdir, truth_dir):
        if not p.is_dir():
            raise UserError(f"{p}: not a folder")
    strokes = _load_json(outdir / "strokes.json")["strokes"]
    summary = _load_json(outdir / "summary.json")
    truth = _load_json(truth_dir / "truth.json")
    if "strokes" not in truth:
        raise UserError(f"{truth_dir / 'truth.json'}: no strokes (not a sim truth)")
    exp_path = truth_dir / "expected_score.json"
    expected = None
    if exp_path.is_file():
        exp = _load_json(exp_path)
        expected = exp.get("state") if isinstance(exp, dict) else None
    return compare(strokes, summary, truth, expected, clip_seen_ends(truth_dir, truth))


def clip_seen_ends(truth_dir: Path, truth: dict[str, Any]) -> list[int] | None:
    """``seen_ends`` of a sim clip folder's truth, from its ``frames.npz``;
    None when the clip has none."""
    frames = truth_dir / str((truth.get("files") or {}).get("frames", "frames.npz"))
    if not frames.is_file():
        return None
    try:
        with np.load(frames) as arrays:
            return seen_ends(truth, arrays["positions_mm"])
    except (OSError, ValueError, KeyError) as error:
        raise UserError(f"{frames}: not a sim clip's frames ({error})") from None


def run(args: argparse.Namespace) -> int:
    """Carry out ``baulk eval``."""
    fig = evaluate(args.outdir, args.truth)
    s = fig.summary()
    if args.json:
        print(json.dumps(s | {"mistakes": fig.mistakes}))
        return 0
    print(f"strokes: F1 {s['strokes_f1']:.3f} ({s['strokes_found']} found, "
          f"{s['strokes_true']} true); start/end within {FRAME_TOL} frames: "
          f"{s['start_end_within_2']} (max error start {s['start_abs_error_max']}, "
          f"end {s['end_abs_error_max']})")
    if fig.seen_errors:
        print(f"  with each end where the balls stopped moving (a ball spinning on "
              f"the spot is still to a camera): {s['start_seen_end_within_2']}")
    print(f"first contact: {s['first_contact_accuracy']:.1%} right")
    print(f"pots (ball and pocket): F1 {s['pots_f1']:.3f}; cue-ball pots found "
          f"{s['cue_ball_pots_found']}; off-table found {s['off_table_found']} "
          f"({s['off_table_false']} called falsely)")
    print(f"cushions after contact: F1 {s['cushion_after_contact_f1']:.3f}")
    print(f"final score equal to truth: {'yes' if fig.scores_equal else 'no'}")
    for m in fig.mistakes:
        print(f"  {m}")
    return 0
