"""Evaluate ball detection, identity and tracking against synthetic truth and the
real labelled frames.

Usage: ``.venv/bin/python benchmarks/vision_eval.py [--clips N] [--frames F]``.

Synthetic clips (seeds 5000+, never used for training) are rendered with
``sim.render``: a random camera (overhead and broadcast alternate), a random look, a
random layout, a cue over the table at the start, the white rolling with constant
deceleration and bouncing off cushions, and a red rolling into a pocket. Prints the
issue's figures (centre error at rest, recall/precision, colour mistakes, moving-ball
recall and error, IDF1 and ID switches from py-motmetrics). Then checks
``../shared/real``: every labelled ball found (within 0.5 radius) with its colour.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.mapping import fit_points
from calibration.table import OFFICIAL
from sim.camera import make_camera
from sim.render import random_appearance
from vision.detect import BallDetector
from vision.pipeline import Pipeline
from vision.synthetic import (
    CueOccluder,
    random_layout,
    render_scene,
    truth_calibration,
)

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real"


def make_clip(seed: int, kind: str, n_frames: int) -> dict:
    """Render a clip; returns frames, truth per frame and the truth calibration."""
    rng = np.random.default_rng(seed)
    cam = make_camera(kind, rng)
    app = random_appearance(rng)
    names, xy = random_layout(rng)
    xy = xy.copy()
    spec = OFFICIAL
    fps = 50.0
    wi = names.index("white")
    ang = rng.uniform(0, 2 * np.pi)
    v0 = rng.uniform(1500, 3000)  # mm/s
    vel = np.zeros_like(xy)
    vel[wi] = v0 * np.array([np.cos(ang), np.sin(ang)])
    reds = [i for i, n in enumerate(names) if n == "red"]
    pot = int(rng.choice(reds)) if reds else None
    pockets = np.array(list(spec.pockets.values()))
    if pot is not None:
        target = pockets[np.argmin(np.linalg.norm(pockets - xy[pot], axis=1))]
        d = target - xy[pot]
        vel[pot] = d / np.linalg.norm(d) * 1200.0
    alive = np.ones(len(names), bool)
    decel = 600.0  # mm/s^2
    start = 10  # frames before the strike, cue in view
    frames, truths = [], []
    for f in range(n_frames):
        moving_now = f >= start
        v = vel if moving_now else np.zeros_like(vel)
        occ = ()
        if f < start:
            tip = xy[wi] - 60 * np.array([np.cos(ang), np.sin(ang)])
            cue_dir = float(np.degrees(ang)) + 180
            occ = (CueOccluder((float(tip[0]), float(tip[1])), cue_dir),)
        keep = np.flatnonzero(alive)
        sc = render_scene(cam, app, tuple(names[i] for i in keep), xy[keep], rng,
                          v[keep] if moving_now else None, occluders=occ)
        frames.append(sc.image)
        truths.append({
            "ids": keep.tolist(), "names": [names[i] for i in keep],
            "xy": xy[keep].copy(), "visible": sc.visible.copy(),
            "moving": np.linalg.norm(v[keep], axis=1) > 1.0,
        })
        if moving_now:
            xy += vel / fps
            sp = np.linalg.norm(vel, axis=1)
            k = np.maximum(sp - decel / fps, 0) / np.maximum(sp, 1e-9)
            vel *= k[:, None]
            for i in np.flatnonzero(alive):
                r = spec.ball_radius
                for ax, lim in ((0, spec.half_length - r), (1, spec.half_width - r)):
                    if abs(xy[i, ax]) > lim:
                        if i == pot:
                            continue
                        xy[i, ax] = np.sign(xy[i, ax]) * (2 * lim - abs(xy[i, ax]))
                        vel[i, ax] *= -1
                if i == pot and np.min(np.linalg.norm(pockets - xy[i], axis=1)) < 40:
                    alive[i] = False
    return {"frames": frames, "truth": truths, "cal": truth_calibration(cam),
            "kind": kind}


def evaluate_clip(clip: dict, acc: dict) -> None:
    """Run the pipeline on a clip and add its figures to ``acc``."""
    import motmetrics as mm

    pipe = Pipeline(clip["cal"])
    mot = mm.MOTAccumulator(auto_id=True)
    kind = clip["kind"]
    colour_of_track: dict[int, str] = {}
    for f, (image, truth) in enumerate(zip(clip["frames"], clip["truth"], strict=True)):
        rows = pipe.process(image, f)
        hyp = [r for r in rows if r.visible]
        gt_vis = truth["visible"] > 0.5
        txy = truth["xy"]
        hxy = np.array([[r.x_mm, r.y_mm] for r in hyp]).reshape(-1, 2)
        d = np.linalg.norm(txy[:, None] - hxy[None], axis=2) if len(hyp) else \
            np.zeros((len(txy), 0))
        dm = np.where(d < 60.0, d**2, np.nan)
        mot.update([truth["ids"][i] for i in np.flatnonzero(gt_vis)],
                   [r.track_id for r in hyp], dm[gt_vis])
        cost = np.where(d < 60.0, d, 1e6)
        ri, ci = linear_sum_assignment(cost) if d.size else ([], [])
        matched_t = set()
        matched_h = set()
        for i, j in zip(ri, ci, strict=True):
            if cost[i, j] >= 1e6:
                continue
            matched_t.add(i)
            matched_h.add(j)
            moving = bool(truth["moving"][i])
            if moving:
                acc["moving_err"].append(d[i, j])
            else:
                acc[f"rest_err_{kind}"].append(d[i, j])
            if hyp[j].kind != truth["names"][i]:
                acc["colour_mistakes"] += 1
            tid = hyp[j].track_id
            if truth["names"][i] != "red":
                prev = colour_of_track.setdefault(tid, truth["names"][i])
                if prev != truth["names"][i]:
                    acc["colour_switches"] += 1
        for i in np.flatnonzero(gt_vis):
            key = "moving" if truth["moving"][i] else "rest"
            acc[f"{key}_gt"] += 1
            acc[f"{key}_found"] += int(i in matched_t)
        acc["hyp"] += len(hyp)
        acc["hyp_matched"] += len(matched_h)
    summary = mm.metrics.create().compute(
        mot, metrics=["idf1", "num_switches"], name="clip")
    acc["idf1"].append(float(summary["idf1"].iloc[0]))
    acc["switches"] += int(summary["num_switches"].iloc[0])
    acc["work"].append((pipe.frames_full, pipe.frames_partial, pipe.frames_skipped))


def evaluate_real() -> list[str]:
    """Check the real frames: every labelled ball found with its colour."""
    lines = []
    labels = json.loads((REAL / "labels.json").read_text())
    for name, lab in labels.items():
        image = cv2.imread(str(REAL / name))
        corners = lab["table_corners_px"]
        names = list(corners)
        img_pts = np.array([corners[n] for n in names])
        cal = fit_points(img_pts, np.array([OFFICIAL.corners[n] for n in names]),
                         (image.shape[1], image.shape[0]))
        det = BallDetector(cal)
        d = det.detect(image)
        ok = 0
        bad = []
        for b in lab["balls"]:
            p = np.array(b["px"])
            dist = np.linalg.norm(d.xy_px - p, axis=1) if len(d) else np.array([1e9])
            j = int(np.argmin(dist))
            if dist[j] < 0.5 * b["r_px"] and d.kind_names()[j] == b["ball"]:
                ok += 1
            else:
                got = d.kind_names()[j] if dist[j] < 0.5 * b["r_px"] else "nothing"
                bad.append(f"{b['ball']}@{p.tolist()}->{got}")
        extra = len(d) - ok
        lines.append(f"real {name}: {ok}/{len(lab['balls'])} balls found with the "
                     f"right colour; {extra} other detections; misses: {bad}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=4)
    parser.add_argument("--frames", type=int, default=40)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", RuntimeWarning)
    cv2.setNumThreads(1)
    acc: dict = {"rest_err_overhead": [], "rest_err_broadcast": [], "moving_err": [],
                 "colour_mistakes": 0, "colour_switches": 0, "rest_gt": 0,
                 "rest_found": 0, "moving_gt": 0, "moving_found": 0, "hyp": 0,
                 "hyp_matched": 0, "idf1": [], "switches": 0, "work": []}
    for c in range(args.clips):
        kind = "overhead" if c % 2 == 0 else "broadcast"
        clip = make_clip(5000 + c, kind, args.frames)
        evaluate_clip(clip, acc)
        print(f"clip {c} ({kind}) done: IDF1 {acc['idf1'][-1]:.3f}", flush=True)
    for kind in ("overhead", "broadcast"):
        e = np.array(acc[f"rest_err_{kind}"])
        if len(e):
            print(f"at rest, {kind}: centre error median {np.median(e):.2f} mm, "
                  f"p95 {np.percentile(e, 95):.2f} mm ({len(e)} ball-frames)")
    rest_recall = acc["rest_found"] / max(acc["rest_gt"], 1)
    print(f"visible balls at rest: recall {rest_recall:.4f}"
          f"; precision (all seen rows) {acc['hyp_matched'] / max(acc['hyp'], 1):.4f}")
    me = np.array(acc["moving_err"])
    print(f"moving balls: recall {acc['moving_found'] / max(acc['moving_gt'], 1):.4f}, "
          f"centre error p95 {np.percentile(me, 95) if len(me) else np.nan:.2f} mm")
    print("colour mistakes (matched rows with the wrong kind):",
          acc["colour_mistakes"])
    print(f"IDF1 (py-motmetrics) per clip: {[round(v, 4) for v in acc['idf1']]}, "
          f"ID switches {acc['switches']}, switches between colours "
          f"{acc['colour_switches']}")
    print(f"frames full/partial/skipped search per clip: {acc['work']}")
    if (REAL / "labels.json").is_file():
        for line in evaluate_real():
            print(line)
    else:
        print(f"{REAL} not found: real frames not checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
