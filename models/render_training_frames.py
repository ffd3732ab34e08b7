"""Render synthetic frames with truth for training the ball classifier.

Usage::

    .venv/bin/python models/render_training_frames.py OUT_DIR --scenes 60 --seed 1

Each scene is a random camera (overhead or broadcast) and a random appearance
(``sim.render.random_appearance`` widened by ``wide_appearance``: ball colours drawn
from ranges that cover real tables' reds, browns, teal greens and tinted blacks,
brighter and darker cloth, and lens blur up to 2.2 px as in broadcast video); it
gets ``--frames`` frames with random layouts, occluders and motion blur. Writes
``OUT_DIR/sNNN_fK.png`` with ``sNNN_fK.json``
(camera, names, centres in mm and px, visible fraction, moving flags). Seeds
``--seed``..``--seed + scenes - 1``; the evaluation uses other seeds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from sim.camera import make_camera
from sim.render import Appearance, random_appearance
from sim.scenes import random_layout, random_occluders, render_scene

BALL_RANGES: dict[str, tuple[tuple[float, float], ...]] = {
    "white": ((195, 245), (200, 245), (200, 245)),
    "red": ((12, 60), (12, 70), (140, 235)),
    "yellow": ((0, 50), (170, 235), (210, 255)),
    "green": ((35, 115), (70, 145), (0, 35)),
    "brown": ((10, 60), (45, 115), (85, 190)),
    "blue": ((150, 235), (50, 145), (0, 35)),
    "pink": ((110, 195), (100, 175), (215, 255)),
    "black": ((8, 35), (8, 45), (8, 35)),
}
"""Ball albedo ranges (BGR) for training scenes; red G/R stays under 0.35 and brown
G/R over 0.42 so the two kinds stay apart."""


def wide_appearance(rng: np.random.Generator) -> Appearance:
    """A random appearance with ball colours, cloth and blur varied widely."""
    app = random_appearance(rng)
    balls = []
    for name, ranges in BALL_RANGES.items():
        c = [float(rng.uniform(lo, hi)) for lo, hi in ranges]
        if name == "red":
            c[1] = min(c[1], 0.35 * c[2])
        elif name == "brown":
            c[1] = max(c[1], 0.42 * c[2])
        balls.append((name, tuple(c)))
    cloth = (float(rng.uniform(12, 60)), float(rng.uniform(140, 215)),
             float(rng.uniform(10, 65)))
    return dataclasses.replace(
        app, ball_bgr=tuple(balls), cloth_bgr=cloth,
        blur_sigma=float(rng.uniform(0.4, 2.2)),
        gain=float(rng.uniform(0.8, 1.2)),
    )


def render_scene_set(out: Path, seed: int, frames: int) -> None:
    """Render one scene's frames into ``out``."""
    rng = np.random.default_rng(seed)
    kind = "overhead" if rng.random() < 0.5 else "broadcast"
    size = (1920, 1080) if rng.random() < 0.75 else (1280, 720)
    camera = make_camera(kind, rng, size=size)
    app = wide_appearance(rng)
    for k in range(frames):
        names, xy = random_layout(rng)
        vel = None
        if rng.random() < 0.4:
            speed = rng.uniform(0, 3500, len(names)) * (rng.random(len(names)) < 0.3)
            ang = rng.uniform(0, 2 * np.pi, len(names))
            vel = np.column_stack([speed * np.cos(ang), speed * np.sin(ang)])
        occ = tuple(random_occluders(rng))
        frame = render_scene(camera, app, names, xy, rng, vel, occluders=occ)
        stem = out / f"s{seed:04d}_f{k}"
        cv2.imwrite(str(stem) + ".png", frame.image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        truth = {
            "camera": camera.to_dict(),
            "names": list(frame.names),
            "xy_mm": frame.xy_mm.tolist(),
            "xy_px": frame.xy_px.tolist(),
            "visible": frame.visible.tolist(),
            "moving": frame.moving.tolist(),
        }
        Path(str(stem) + ".json").write_text(json.dumps(truth))


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--frames", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    for s in range(args.seed, args.seed + args.scenes):
        if (args.out / f"s{s:04d}_f{args.frames - 1}.json").exists():
            continue
        render_scene_set(args.out, s, args.frames)
        print(f"scene {s} done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
