"""Evaluate ball detection, identity and tracking against synthetic truth and the
real labelled frames: the figures of issue 5.

Usage::

    .venv/bin/python benchmarks/vision_eval.py [CLIP_DIR ...] [--max-frames F]

Each CLIP_DIR is a clip made by ``baulk synth`` (``video.mp4``, ``frames.npz``,
``calibration.json``, ``truth.json``; default: every folder in ``sample_videos/``).
None of them was used to train the classifier (it trains on
``models/render_training_frames.py`` scenes). The video is decoded and run through
``vision.pipeline.Pipeline`` with the truth calibration; every frame's rows are
compared with the truth:

- a truth ball counts as visible when at least ``--min-visible`` of its disc shows
  and it is on the cloth (not in flight); it is at rest when it moved less than
  0.5 mm since the last frame and moves less than that to the next. The clip's
  visible fractions count cushions, cues and hands but not other balls; the share
  of the disc that nearer balls hide (``ball_cover``; the pack in a broadcast view)
  is taken off them, unless ``--sim-visibility``. Rows on balls that show less than
  that (but more than 5%) are left out: neither found balls nor false ones;
- rows (visible ones: the ball was seen) and visible truth balls are paired by a
  minimum-cost assignment within ``--gate`` mm (a ball's radius by default);
- recall, precision, centre error (median, p95) at rest per camera kind, the
  moving-ball recall and p95 error, colour mistakes (paired rows of the wrong kind);
- IDF1 and ID switches from py-motmetrics (``MOTAccumulator``; truth ids are ball
  keys, hypothesis ids the track ids, distance = squared mm within the gate), and
  switches between colours (a track paired with balls of two kinds).

With ``--detector-only`` the detector alone is scored (a full search of every frame,
no tracker, no IDF1), which tells detection losses from tracking ones.

Then ``../shared/real``: every labelled ball found (within 0.5 radius) with the
right colour.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.mapping import Calibration, fit_points  # noqa: E402
from calibration.table import OFFICIAL  # noqa: E402
from sim.scenes import clip_calibration  # noqa: E402
from vision.detect import BallDetector  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.pipeline import Pipeline, TrackRow  # noqa: E402

REAL = ROOT.parent / "shared" / "real"
SAMPLES = ROOT / "sample_videos"


_DISC = np.array([
    [np.sqrt((k + 0.5) / 96) * np.cos(2.39996 * k),
     np.sqrt((k + 0.5) / 96) * np.sin(2.39996 * k)] for k in range(96)])
"""(96, 2) evenly spread points of the unit disc (a sunflower)."""


def ball_cover(pos_mm: np.ndarray, pos_px: np.ndarray, cal: Calibration
               ) -> np.ndarray:
    """(F, N) share of each ball's image disc hidden by nearer balls.

    Args:
        pos_mm: (F, N, 3) ball centres, mm (NaN: off the table).
        pos_px: (F, N, 2) their images, px.
        cal: The clip's calibration (its pose gives depths and image radii).
    """
    f_n, n = pos_mm.shape[:2]
    out = np.zeros((f_n, n))
    pose = cal.pose
    if pose is None:
        return out
    focal = float(np.sqrt(pose.camera_matrix[0, 0] * pose.camera_matrix[1, 1]))
    for f in range(f_n):
        ok = np.flatnonzero(np.isfinite(pos_mm[f, :, 0])
                            & np.isfinite(pos_px[f, :, 0]))
        if len(ok) < 2:
            continue
        depth = np.linalg.norm(pos_mm[f, ok] - pose.centre_mm, axis=1)
        rad = focal * cal.spec.ball_radius / depth
        c = pos_px[f, ok]
        pts = c[:, None] + rad[:, None, None] * _DISC[None]  # (M, 96, 2)
        d = np.linalg.norm(pts[:, :, None] - c[None, None], axis=3)  # (M, 96, M)
        nearer = depth[None, :] < depth[:, None]  # [i, j]: j is nearer than i
        hidden = ((d < rad[None, None]) & nearer[:, None]).any(axis=2)
        out[f, ok] = hidden.mean(axis=1)
    return out


def _truth(folder: Path, cal: Calibration, sim_visibility: bool = False) -> dict:
    """Per-frame truth arrays of a clip folder (see ``ball_cover``)."""
    meta = json.loads((folder / "truth.json").read_text())
    with np.load(folder / "frames.npz") as z:
        keys = [str(k) for k in z["keys"]]
        pos = z["positions_mm"].astype(np.float64)
        pos_px = z["positions_px"].astype(np.float64)
        vis = z["visible"].astype(np.float64)
    if not sim_visibility:
        vis = vis * (1.0 - ball_cover(pos, pos_px, cal))
    names = [k.split("_")[0] for k in keys]
    step = np.linalg.norm(np.diff(pos[..., :2], axis=0), axis=2)
    step = np.nan_to_num(step, nan=0.0)
    moving = np.zeros(vis.shape, bool)
    moving[1:] |= step > 0.5
    moving[:-1] |= step > 0.5
    r = float(meta.get("ball_radius_mm", OFFICIAL.ball_radius))
    on_cloth = np.isfinite(pos[..., 0]) & (np.abs(pos[..., 2] - r) < 2.0)
    return {"meta": meta, "keys": keys, "names": names, "pos": pos[..., :2],
            "px": pos_px, "vis": vis, "moving": moving, "on_cloth": on_cloth}


def _pair(txy: np.ndarray, hxy: np.ndarray, gate: float
          ) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-cost pairs (truth rows, hypothesis rows) within ``gate`` mm."""
    d = np.linalg.norm(txy[:, None] - hxy[None], axis=2)
    if d.size == 0:
        return np.zeros(0, int), np.zeros(0, int)
    cost = np.where(d < gate, d, 1e9)
    ri, ci = linear_sum_assignment(cost)
    ok = cost[ri, ci] < 1e9
    return ri[ok], ci[ok]


def _detection_rows(d: Detections) -> list[TrackRow]:
    """A frame's detections as rows (``--detector-only``; ids are row numbers)."""
    kinds = d.kind_names()
    conf = d.probs.max(axis=1)
    return [TrackRow(d.frame + 1, i, kinds[i], float(d.xy_mm[i, 0]),
                     float(d.xy_mm[i, 1]), float(d.xy_px[i, 0]), float(d.xy_px[i, 1]),
                     True, float(conf[i]), float(d.radius_px[i]))
            for i in range(len(d))]


def evaluate_clip(folder: Path, acc: dict, args: argparse.Namespace) -> None:
    """Run the pipeline over one clip and add its figures to ``acc``."""
    import motmetrics as mm

    cal = clip_calibration(folder / "calibration.json")
    truth = _truth(folder, cal, args.sim_visibility)
    cam = truth["meta"]["camera_kind"]
    pipe = Pipeline(cal)
    cap = cv2.VideoCapture(str(folder / "video.mp4"))
    mot = mm.MOTAccumulator(auto_id=True)
    kinds_of_track: dict[int, set[str]] = defaultdict(set)
    a = acc[cam]
    dump: list[dict] = a["dump"]
    t_pipe = 0.0
    n_frames = min(len(truth["vis"]), args.max_frames or 10**9)
    for f in range(n_frames):
        ok, image = cap.read()
        if not ok:
            break
        t0 = time.perf_counter()
        if args.detector_only:
            rows = _detection_rows(pipe.detector.detect(image, f).sure())
        else:
            rows = pipe.process(image, f)
        t_pipe += time.perf_counter() - t0
        hyp = [r for r in rows if r.visible]
        hxy = np.array([[r.x_mm, r.y_mm] for r in hyp]).reshape(-1, 2)
        vis_f = truth["vis"][f] * truth["on_cloth"][f]
        gt = np.flatnonzero(vis_f >= args.min_visible)
        # rows on balls that show only a little (neither to be found nor false)
        partly = np.flatnonzero((vis_f > 0.05) & (vis_f < args.min_visible))
        _, ci = _pair(truth["pos"][f, partly], hxy, args.gate)
        hyp = [r for j, r in enumerate(hyp) if j not in set(ci.tolist())]
        hxy = np.array([[r.x_mm, r.y_mm] for r in hyp]).reshape(-1, 2)
        txy = truth["pos"][f, gt]
        d = np.linalg.norm(txy[:, None] - hxy[None], axis=2)
        dm = np.where(d < args.gate, d**2, np.nan)
        mot.update(gt.tolist(), [r.track_id for r in hyp], dm)
        pairs = list(zip(*_pair(txy, hxy, args.gate), strict=True))
        found = {i for i, _ in pairs}
        for i, j in pairs:
            key = gt[i]
            name = truth["names"][key]
            moving = bool(truth["moving"][f, key])
            a["moving_err" if moving else "rest_err"].append(d[i, j])
            if hyp[j].kind != name:
                a["colour_mistakes"] += 1
                a["mistakes"].append(f"f{f} {truth['keys'][key]}->{hyp[j].kind}")
                dump.append({"what": "colour", "frame": f, "ball": truth["keys"][key],
                             "kind": hyp[j].kind, "track": hyp[j].track_id,
                             "px": [round(hyp[j].px, 1), round(hyp[j].py, 1)]})
            kinds_of_track[hyp[j].track_id].add(name)
        for i, key in enumerate(gt):
            moving = bool(truth["moving"][f, key])
            tag = "moving" if moving else "rest"
            a[f"{tag}_gt"] += 1
            if i in found:
                a[f"{tag}_found"] += 1
            else:
                if len(a["misses"]) < 2000:
                    a["misses"].append((f, truth["keys"][key], tag))
                dump.append({"what": "miss", "frame": f, "ball": truth["keys"][key],
                             "state": tag, "visible": round(truth["vis"][f, key], 2),
                             "mm": truth["pos"][f, key].round(1).tolist(),
                             "px": truth["px"][f, key].round(1).tolist()})
        a["hyp"] += len(hyp)
        a["hyp_matched"] += len(pairs)
        unmatched = set(range(len(hyp))) - {j for _, j in pairs}
        for j in unmatched:
            if len(a["false"]) < 2000:
                a["false"].append((f, hyp[j].kind, round(hyp[j].x_mm),
                                   round(hyp[j].y_mm)))
            dump.append({"what": "unpaired", "frame": f, "kind": hyp[j].kind,
                         "track": hyp[j].track_id,
                         "mm": [round(hyp[j].x_mm, 1), round(hyp[j].y_mm, 1)],
                         "px": [round(hyp[j].px, 1), round(hyp[j].py, 1)]})
    cap.release()
    if args.detector_only:  # no tracks: no identities to score
        a["idf1"].append((folder.name, float("nan")))
    else:
        summary = mm.metrics.create().compute(
            mot, metrics=["idf1", "num_switches"], name=folder.name)
        a["idf1"].append((folder.name, float(summary["idf1"].iloc[0])))
        a["switches"] += int(summary["num_switches"].iloc[0])
        a["colour_switches"] += sum(len(k) > 1 for k in kinds_of_track.values())
    a["work"].append((folder.name, pipe.frames_full, pipe.frames_partial,
                      pipe.frames_skipped))
    a["fps"].append((folder.name, f / max(t_pipe, 1e-9)))


def _fmt_misses(items: list, n: int = 8) -> str:
    count: dict = defaultdict(int)
    for it in items:
        count[it[1:] if len(it) == 3 else it[1]] += 1
    top = sorted(count.items(), key=lambda kv: -kv[1])[:n]
    return ", ".join(f"{k}x{v}" for k, v in top)


def report(acc: dict) -> None:
    """Print the synthetic figures per camera kind."""
    targets = {"overhead": (2.0, 5.0), "broadcast": (6.0, 15.0)}
    for cam, a in acc.items():
        if not a["idf1"]:
            continue
        e = np.array(a["rest_err"])
        med_t, p95_t = targets[cam]
        print(f"[{cam}] clips {[n for n, _ in a['idf1']]}")
        if len(e):
            print(f"[{cam}] at rest: centre error median {np.median(e):.2f} mm "
                  f"(target < {med_t}), p95 {np.percentile(e, 95):.2f} mm "
                  f"(target < {p95_t}); {len(e)} ball-frames")
        rec = a["rest_found"] / max(a["rest_gt"], 1)
        prec = a["hyp_matched"] / max(a["hyp"], 1)
        print(f"[{cam}] visible balls at rest: recall {rec:.4f} "
              f"({a['rest_found']}/{a['rest_gt']}); precision of seen rows "
              f"{prec:.4f} ({a['hyp_matched']}/{a['hyp']}) (targets >= 0.995)")
        me = np.array(a["moving_err"])
        mrec = a["moving_found"] / max(a["moving_gt"], 1)
        p95 = np.percentile(me, 95) if len(me) else float("nan")
        print(f"[{cam}] moving balls: recall {mrec:.4f} ({a['moving_found']}/"
              f"{a['moving_gt']}) (target >= 0.98), centre error p95 {p95:.2f} mm "
              f"(target < 15)")
        print(f"[{cam}] colour mistakes (paired rows of the wrong kind): "
              f"{a['colour_mistakes']} (target 0) {a['mistakes'][:6]}")
        print(f"[{cam}] IDF1 (py-motmetrics): "
              f"{[(n, round(v, 4)) for n, v in a['idf1']]} (target >= 0.98); "
              f"ID switches {a['switches']}; tracks paired with two colours "
              f"{a['colour_switches']} (target 0)")
        print(f"[{cam}] search work (clip, full, partial, skipped): {a['work']}; "
              f"pipeline fps (decode excluded, all threads): "
              f"{[(n, round(v, 1)) for n, v in a['fps']]}")
        if a["misses"]:
            print(f"[{cam}] most missed (ball, rest/moving): "
                  f"{_fmt_misses(a['misses'])}")
        if a["false"]:
            print(f"[{cam}] unpaired seen rows (kind): {_fmt_misses(a['false'])}")


def evaluate_real(real: Path = REAL) -> tuple[int, int, list[str]]:
    """Every labelled ball of the real frames found with its colour.

    Returns:
        (balls right, visible balls labelled, one line per frame).
    """
    lines = []
    labels = json.loads((real / "labels.json").read_text())
    right = total = 0
    for name, lab in labels.items():
        image = cv2.imread(str(real / name))
        corners = lab["table_corners_px"]
        names = list(corners)
        cal = fit_points(np.array([corners[n] for n in names]),
                         np.array([OFFICIAL.corners[n] for n in names]),
                         (image.shape[1], image.shape[0]))
        d = BallDetector(cal).detect(image).sure()
        kinds = d.kind_names()
        ok, bad = 0, []
        used = set()
        for b in lab["balls"]:
            p = np.array(b["px"])
            dist = np.linalg.norm(d.xy_px - p, axis=1) if len(d) else np.array([1e9])
            j = int(np.argmin(dist))
            hit = dist[j] < 0.5 * b["r_px"]
            if hit:
                used.add(j)
            if hit and kinds[j] == b["ball"]:
                ok += 1
            else:
                got = kinds[j] if hit else "nothing"
                occ = " (occluded)" if b.get("occluded") else ""
                bad.append(f"{b['ball']}@{[round(v) for v in p]}{occ}->{got}")
        extra = [f"{kinds[j]}@{[round(v) for v in d.xy_px[j]]}"
                 for j in range(len(d)) if j not in used]
        right += ok
        total += len(lab["balls"])
        lines.append(f"real {name}: {ok}/{len(lab['balls'])} labelled balls found "
                     f"with the right colour; wrong or missed: {bad}; "
                     f"other detections: {extra}")
    return right, total, lines


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clips", nargs="*", type=Path,
                        help="clip folders (default: sample_videos/*)")
    parser.add_argument("--max-frames", type=int, default=0,
                        help="frames per clip (0: all)")
    parser.add_argument("--gate", type=float, default=OFFICIAL.ball_radius,
                        help="pairing distance, mm")
    parser.add_argument("--min-visible", type=float, default=0.5,
                        help="visible disc fraction that makes a ball visible")
    parser.add_argument("--sim-visibility", action="store_true",
                        help="the clip's visible fractions as they are (balls "
                        "hidden by nearer balls count as visible)")
    parser.add_argument("--dump", type=Path, default=None,
                        help="write every miss, unpaired row and colour mistake "
                        "(frame, ball, mm, px) to this JSON-lines file")
    parser.add_argument("--detector-only", action="store_true",
                        help="score the detector alone: a full search of every "
                        "frame, no tracking (no IDF1)")
    parser.add_argument("--no-real", action="store_true")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", RuntimeWarning)
    clips = args.clips or sorted(p for p in SAMPLES.iterdir()
                                 if (p / "frames.npz").is_file())

    def blank() -> dict:
        return {"rest_err": [], "moving_err": [], "colour_mistakes": 0,
                "mistakes": [], "rest_gt": 0, "rest_found": 0, "moving_gt": 0,
                "moving_found": 0, "hyp": 0, "hyp_matched": 0, "idf1": [],
                "switches": 0, "colour_switches": 0, "work": [], "fps": [],
                "misses": [], "false": [], "dump": []}

    acc = {"overhead": blank(), "broadcast": blank()}
    for folder in clips:
        t0 = time.perf_counter()
        evaluate_clip(folder, acc, args)
        print(f"{folder.name}: done in {time.perf_counter() - t0:.0f} s", flush=True)
    report(acc)
    if args.dump is not None:
        with args.dump.open("w") as fh:
            for cam, a in acc.items():
                for item in a["dump"]:
                    fh.write(json.dumps({"camera": cam, **item}) + "\n")
    if not args.no_real:
        if (REAL / "labels.json").is_file():
            right, total, lines = evaluate_real()
            for line in lines:
                print(line)
            print(f"real frames: {right}/{total} labelled balls found with the "
                  f"right colour (target: all visible ones)")
        else:
            print(f"{REAL} not found: real frames not checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
