"""Train the ball patch classifier and export it to ONNX.

Usage::

    .venv/bin/python models/render_training_frames.py /tmp/balls --scenes 60
    .venv/bin/python models/train_ball_classifier.py /tmp/balls \\
        -o models/ball_classifier.onnx --val-scenes 8

Patches come from the detector itself (``vision.detect.BallDetector`` with a
classifier that accepts everything) on rendered frames: candidates within 0.3
radius of a true ball get its kind, candidates further than 1.2 radius from every
ball are "none" (cues, hands, pocket jaws, highlights); in between is left out.
True positions (jittered) add positives the detector missed. The last
``--val-scenes`` scenes are held apart for the accuracy in the model card.
Needs PyTorch (CPU build: ``pip install torch==2.13.0``), only for training.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import cv2
import numpy as np

from sim.camera import Camera
from sim.scenes import truth_calibration
from vision.detect import BallDetector
from vision.identify import extract_patches
from vision.kinds import KINDS, NONE_CLASS, kind_index


class AcceptAll:
    """A classifier that calls every candidate a ball (to collect candidates)."""

    description = "accept all"

    def classify(self, image, xy_px, radius_px, cloth, quality):
        """Uniform over the kinds, no "none"."""
        p = np.zeros((len(xy_px), NONE_CLASS + 1), np.float32)
        p[:, :NONE_CLASS] = 1.0 / NONE_CLASS
        return p


def collect(
    files: list[Path], rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Patches (N, 6, P, P) and labels (N,) from rendered frames with truth."""
    xs, ys = [], []
    for f in files:
        truth = json.loads(f.read_text())
        image = cv2.imread(str(f.with_suffix(".png")))
        cam = Camera.from_dict(truth["camera"])
        det = BallDetector(truth_calibration(cam), AcceptAll())
        d = det.detect(image).sure()
        cloth = det.cloth
        assert cloth is not None
        tp = np.array(truth["xy_px"]).reshape(-1, 2)
        vis = np.array(truth["visible"])
        names = truth["names"]
        r_true = det.view.radius_px(tp) if len(tp) else np.zeros(0)
        labels = []
        keep = []
        for i, p in enumerate(d.xy_px):
            if len(tp) == 0:
                labels.append(NONE_CLASS)
                keep.append(i)
                continue
            dist = np.linalg.norm(tp - p, axis=1) / np.maximum(r_true, 1)
            j = int(np.argmin(dist))
            if dist[j] < 0.3 and vis[j] > 0.3:
                labels.append(kind_index(names[j]))
                keep.append(i)
            elif dist[j] > 1.2:
                labels.append(NONE_CLASS)
                keep.append(i)
        if keep:
            idx = np.array(keep)
            xs.append(extract_patches(image, d.xy_px[idx], d.radius_px[idx],
                                      cloth.local_bgr(d.xy_px[idx])))
            ys.append(np.array(labels))
        # jittered truth positives (also covers balls the detector missed)
        ok = vis > 0.5
        if ok.any():
            p = tp[ok] + rng.normal(0, 0.08, (ok.sum(), 2)) * r_true[ok, None]
            r = r_true[ok] * rng.uniform(0.92, 1.08, ok.sum())
            xs.append(extract_patches(image, p, r, cloth.local_bgr(p)))
            ys.append(np.array([kind_index(n) for n, o in zip(names, ok, strict=True)
                                if o]))
        print(f"{f.name}: {sum(len(y) for y in ys)} patches", flush=True)
    return np.concatenate(xs), np.concatenate(ys)


def build_model():
    """The small CNN (about 30k parameters)."""
    import torch.nn as nn

    return nn.Sequential(
        nn.Conv2d(6, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(32, 48, 3, padding=1), nn.BatchNorm2d(48), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(48, 64, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(64, NONE_CLASS + 1),
    )


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour casts, exposure, noise, flips and quarter turns (in place copy)."""
    x = x.copy()
    n = len(x)
    gains = rng.uniform(0.8, 1.2, (n, 3)).astype(np.float32)
    x[:, :3] *= gains[:, :, None, None]
    x[:, 3:] *= gains[:, :, None, None]
    norm = x[:, 3:, 0, 0].mean(1)
    x /= np.maximum(norm, 1e-3)[:, None, None, None]
    x[:, :3] *= rng.uniform(0.85, 1.15, (n, 1, 1, 1)).astype(np.float32)
    x[:, :3] += rng.normal(0, 0.03, x[:, :3].shape).astype(np.float32)
    if rng.random() < 0.5:
        x = x[..., ::-1]
    x = np.rot90(x, int(rng.integers(4)), axes=(2, 3))
    return np.ascontiguousarray(x)


def main(argv: list[str] | None = None) -> int:
    """Collect patches, train, report held-apart accuracy, export ONNX."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("frames", type=Path)
    parser.add_argument("-o", "--output", type=Path,
                        default=Path("models/ball_classifier.onnx"))
    parser.add_argument("--val-scenes", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    import torch

    warnings.simplefilter("ignore", RuntimeWarning)
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(args.seed)
    files = sorted(args.frames.glob("*.json"))
    scenes = sorted({f.name.split("_")[0] for f in files})
    val_scenes = set(scenes[-args.val_scenes:])
    train_f = [f for f in files if f.name.split("_")[0] not in val_scenes]
    val_f = [f for f in files if f.name.split("_")[0] in val_scenes]
    cache = args.frames / "patches.npz"
    if cache.exists():
        z = np.load(cache)
        xt, yt, xv, yv = z["xt"], z["yt"], z["xv"], z["yv"]
    else:
        xt, yt = collect(train_f, rng)
        xv, yv = collect(val_f, rng)
        np.savez(cache, xt=xt, yt=yt, xv=xv, yv=yv)
    print(f"train {len(yt)} patches, held apart {len(yv)}; "
          f"class counts {np.bincount(yt, minlength=NONE_CLASS + 1).tolist()}")
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    counts = np.bincount(yt, minlength=NONE_CLASS + 1).astype(np.float64)
    weights = torch.tensor((counts.sum() / np.maximum(counts, 1)) ** 0.5,
                           dtype=torch.float32)
    loss_fn = torch.nn.CrossEntropyLoss(weight=weights / weights.mean())
    steps = args.epochs * (len(yt) // 128 + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    for epoch in range(args.epochs):
        model.train()
        perm = rng.permutation(len(yt))
        total = 0.0
        for b in range(0, len(perm), 128):
            idx = perm[b : b + 128]
            xb = torch.from_numpy(augment(xt[idx], rng))
            yb = torch.from_numpy(yt[idx].astype(np.int64))
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            pred = model(torch.from_numpy(xv)).argmax(1).numpy()
        print(f"epoch {epoch}: loss {total / len(yt):.4f}, held-apart accuracy "
              f"{(pred == yv).mean():.4f}", flush=True)
    confusion = np.zeros((NONE_CLASS + 1, NONE_CLASS + 1), int)
    np.add.at(confusion, (yv, pred), 1)
    print("held-apart confusion (rows truth, cols predicted):",
          [*map(str, KINDS), "none"])
    print(confusion)
    dummy = torch.zeros(1, 6, xt.shape[2], xt.shape[3])
    torch.onnx.export(
        model, dummy, str(args.output), input_names=["patches"],
        output_names=["logits"], dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}},
        opset_version=17, dynamo=False,
    )
    print(f"wrote {args.output} ({args.output.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
