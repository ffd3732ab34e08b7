"""Multi-stroke clips with exact truth: play, physics, rendering, video, truth files.

``make_clip(seed, camera_kind, strokes, out_dir)`` writes into ``out_dir``:

- ``video.mp4``: the footage (mp4v), 1080p by default.
- ``truth.json``: clip metadata, the calibration truth (camera, homography, table
  corners in pixels), the balls, and every stroke with its start/end frame and its
  events with frame indices (see ``sim.truth``).
- ``frames.npz``: per-frame ball positions in table mm and pixels, on-table flags
  and visible fractions (see ``sim.truth``).
- ``match_log.jsonl``: the true match log in the contracts' format.
- ``expected_score.json``: ``baulk score --json`` on that log, when the rules
  engine is installed (otherwise the file says why it is missing).
- ``calls.jsonl``: the referee's calls that footage cannot show (the colours
  nominated), for ``baulk analyze --calls``.

The same seed (and arguments) gives the same clip.
"""

from __future__ import annotations

import json
import math
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.table import CUSHION_NOSE_HEIGHT_MM, OFFICIAL, TableSpec
from sim.camera import IMAGE_SIZE, Camera, make_camera
from sim.occluders import Hand, Player, ScoreBar
from sim.physics import PhysEvent, Shot, StrokeSim, simulate_stroke
from sim.player import Plan, choose_shot
from sim.render import Appearance, Balls, random_appearance, render_frame_info
from sim.sequencing import (
    COLOURS,
    Outcome,
    break_place,
    golf_start_state,
    name_of,
    next_state,
    place_in_d,
    rack,
    start_state,
)
from sim.truth import TRUTH_VERSION, referee_calls, write_frames

SHUTTER_FRACTION = 0.5
"""Exposure time as a fraction of the frame interval (motion blur)."""
BLUR_SAMPLES = 5
"""Sub-frame samples for a moving ball's blur."""


@dataclass
class _Frame:
    xyz: np.ndarray  # (N, 3) mm, NaN when not on the table
    path: np.ndarray | None = None  # (S, N, 3) for blur
    occluders: list[Any] = field(default_factory=list)
    cut: bool = False  # another camera (a close-up) is on screen


CLOSE_UP_ZOOM = 3.0
"""Magnification of the close-up shown during a camera cut."""


def close_up(image: np.ndarray, centre_px: np.ndarray) -> np.ndarray:
    """Another camera's shot: the broadcast frame magnified around a point.

    Args:
        image: (H, W, 3) uint8 frame of the main camera.
        centre_px: (2,) px point to magnify around (kept inside the frame).
    """
    h, w = image.shape[:2]
    cw, ch = w / CLOSE_UP_ZOOM, h / CLOSE_UP_ZOOM
    cx = float(np.clip(centre_px[0], cw / 2, w - cw / 2))
    cy = float(np.clip(centre_px[1], ch / 2, h - ch / 2))
    m = np.array([[CLOSE_UP_ZOOM, 0, w / 2 - CLOSE_UP_ZOOM * cx],
                  [0, CLOSE_UP_ZOOM, h / 2 - CLOSE_UP_ZOOM * cy]], np.float32)
    return cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_LINEAR)


def first_contact(
    events: Sequence[PhysEvent], cue: str = "white"
) -> tuple[list[str], float]:
    """Keys the cue ball struck first (two when simultaneous) and the time (inf)."""
    hits = [e for e in events if e.kind == "ball_ball" and cue in e.balls]
    if not hits:
        return [], math.inf
    t0 = hits[0].time
    keys = []
    for e in hits:
        if e.time - t0 > 1e-4:
            break
        other = e.balls[1] if e.balls[0] == cue else e.balls[0]
        if other not in keys:
            keys.append(other)
    return keys, t0


def positions_record(final: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """Rest positions in the contracts' ``positions`` form (mm, 0.1 mm)."""
    out: dict[str, Any] = {}
    reds = []
    for key in sorted(final):
        x, y = (round(float(v), 1) for v in final[key])
        if name_of(key) == "red":
            reds.append([x, y])
        else:
            out[name_of(key)] = [x, y]
    if reds:
        out["red"] = reds
    return out


def shot_record(sim: StrokeSim, plan: Plan) -> dict[str, Any]:
    """The contract ``shot`` record of a simulated stroke."""
    first, t_first = first_contact(sim.events)
    cushions: list[str] = []
    for e in sim.events:
        if e.kind in ("cushion", "off_table") and e.time >= t_first:
            name = name_of(e.balls[0])
            if name not in cushions:
                cushions.append(name)
    final = {
        k: (float(x), float(y))
        for k, (x, y) in zip(sim.keys, sim.final_xy, strict=True)
        if not math.isnan(x)
    }
    rec: dict[str, Any] = {
        "type": "shot",
        "first_contact": [name_of(k) for k in first],
        "potted": [
            {"ball": name_of(k), "pocket": p}
            for k, p in sorted(
                sim.potted.items(), key=lambda kv: _event_time(sim, kv[0])
            )
        ],
        "off_table": [name_of(k) for k in sim.off_table],
        "cushion_after_contact": cushions,
        "positions": positions_record(final),
    }
    if plan.nominated:
        rec["nominated"] = plan.nominated
    return rec


def golf_record(rec: dict[str, Any]) -> dict[str, Any]:
    """A shot record of snooker golf: the colours standing for the players' balls
    named by number, as the contract names golf balls (``"1"`` is the yellow)."""

    def number(name: str) -> str:
        return str(COLOURS.index(name) + 1) if name in COLOURS else name

    out = dict(rec)
    for key in ("first_contact", "off_table", "cushion_after_contact"):
        out[key] = [number(b) for b in rec.get(key, [])]
    out["potted"] = [{**p, "ball": number(p["ball"])} for p in rec["potted"]]
    out.pop("positions", None)  # golf needs no positions
    return out


def _event_time(sim: StrokeSim, key: str) -> float:
    return next(
        (e.time for e in sim.events if e.kind == "pocket" and key in e.balls), 0.0
    )


def expected_score(log_path: Path) -> dict[str, Any]:
    """``baulk score LOG --json`` if the rules engine is there, else why not."""
    try:
        import baulk.commands.score  # noqa: F401
    except ImportError as error:
        return {"available": False, "reason": f"rules engine not installed: {error}"}
    proc = subprocess.run(
        [sys.executable, "-m", "baulk.cli", "score", str(log_path), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    try:
        state = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {
            "available": False,
            "reason": f"baulk score failed: {proc.stderr.strip()}",
        }
    return {"available": True, "exit_code": proc.returncode, "state": state}


def make_clip(
    seed: int,
    camera_kind: str,
    strokes: int,
    out_dir: Path | str,
    *,
    fps: int = 30,
    size: tuple[int, int] = IMAGE_SIZE,
    table: TableSpec = OFFICIAL,
    reds: int | None = None,
    variant: str = "wpbsa",
    cuts: bool = False,
    verbose: bool = False,
) -> dict[str, Any]:
    """Generate one clip; see the module docstring. Returns the truth dict.

    Args:
        seed: The clip's seed (same seed, same clip).
        camera_kind: ``overhead`` or ``broadcast``.
        strokes: Number of strokes (fewer if the frame ends first).
        out_dir: Output folder (created).
        fps: Frames per second.
        size: Image size (width, height).
        table: Table dimensions.
        reds: Reds in the rack (default: 15, 10 or 6 at random).
        variant: The rules refereeing the clip (``wpbsa``, ``amateur``,
            ``american``): they decide what comes next and score the log.
        cuts: Between some strokes cut to a close-up for 1-2.5 s (the referee
            re-spots while it is on); truth.json lists the cuts' frames.
        verbose: Print progress to stderr.
    """
    t_start = time.perf_counter()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ss = np.random.SeedSequence(seed)
    cam_rng, app_rng, play_rng, phys_rng, render_rng = (
        np.random.default_rng(s) for s in ss.spawn(5)
    )
    # its own stream, so that clips without cuts stay as they were
    cut_rng = np.random.default_rng(ss.spawn(1)[0]) if cuts else None
    camera = make_camera(camera_kind, cam_rng, table, size)
    app = random_appearance(app_rng, table)
    if reds is None:
        reds = int(play_rng.choice([15, 10, 6]))
    golf = variant == "golf"
    players = ["Player 1", "Player 2"]
    if golf:
        reds = 0
        state = golf_start_state(len(players), table)
        start = dict(state.positions)
    else:
        start = rack(table, reds)
        state = start_state(start, reds, table, variant)
    keys = ("white", *COLOURS, *sorted(k for k in start if k.startswith("red")))
    index = {k: i for i, k in enumerate(keys)}
    r = table.ball_radius
    skill = float(play_rng.uniform(0.08, 0.3))
    first_record: dict[str, Any] = {
        "type": "frame_start",
        "variant": variant,
        "players": players,
        "breaker": 0,
    }
    if not golf:
        first_record["reds"] = reds
    log: list[dict[str, Any]] = [first_record]
    frames: list[_Frame] = []
    stroke_truth: list[dict[str, Any]] = []

    def xyz_of(positions: dict[str, tuple[float, float]]) -> np.ndarray:
        arr = np.full((len(keys), 3), np.nan)
        for k, (x, y) in positions.items():
            arr[index[k]] = (x, y, r)
        return arr

    def trial(positions: Any, shot: Shot) -> StrokeSim:
        return simulate_stroke(positions, shot, phys_rng, table, allow_off_table=False)

    respotted: dict[str, tuple[float, float]] = {}
    for stroke_index in range(strokes):
        if state.frame_over:
            break
        positions = dict(state.positions)
        placed = None
        if state.cue_in_hand:
            if state.strokes == 0:
                placed = break_place(positions, table, play_rng)
            else:
                placed = place_in_d(positions, table, play_rng)
            positions["white"] = placed
            state = replace(state, positions=positions, cue_in_hand=False)
        plan = choose_shot(
            state,
            table,
            play_rng,
            simulate=trial,
            skill_deg=skill,
            safety_prob=0.15,
        )
        # Pause before the stroke: the referee's hand places balls, then the player
        # gets down on the shot.
        n_hand = int(fps * play_rng.uniform(0.5, 0.8)) if (respotted or placed) else 0
        n_aim = (
            int(fps * play_rng.uniform(0.8, 1.4)) if stroke_index else int(fps * 1.0)
        )
        hands = [Hand(xy) for xy in respotted.values()]
        if placed is not None and state.strokes > 0:
            hands.append(Hand(placed))
        xyz_now = xyz_of(dict(state.positions))
        if cut_rng is not None and stroke_index and cut_rng.random() < 0.6:
            for _ in range(int(fps * cut_rng.uniform(1.0, 2.5))):
                frames.append(_Frame(xyz_now, cut=True))
        for _ in range(n_hand):
            frames.append(_Frame(xyz_now, occluders=list(hands)))
        cue_xy = state.positions["white"]
        for i in range(n_aim):
            gap = 20.0 + 60.0 * abs(math.sin(i / fps * 2.5))  # feathering
            frames.append(
                _Frame(xyz_now, occluders=[Player(cue_xy, plan.shot.angle_deg, gap)])
            )
        sim = simulate_stroke(state.positions, plan.shot, phys_rng, table)
        start_frame = len(frames)
        n_stroke = math.ceil(sim.duration * fps) + 1
        times = np.arange(n_stroke) / fps
        dt = SHUTTER_FRACTION / fps
        offsets = np.linspace(-dt / 2, dt / 2, BLUR_SAMPLES)
        all_t = (times[:, None] + offsets[None, :]).ravel()
        sub_xyz, _ = sim.positions(all_t)
        sub_xyz = sub_xyz.reshape(n_stroke, BLUR_SAMPLES, len(sim.keys), 3)
        centre_xyz, _ = sim.positions(times)
        cols = [index[k] for k in sim.keys]
        for i, t in enumerate(times):
            xyz = np.full((len(keys), 3), np.nan)
            xyz[cols] = centre_xyz[i]
            path = np.full((BLUR_SAMPLES, len(keys), 3), np.nan)
            path[:, cols] = sub_xyz[i]
            occ = []
            if t < 0.35:
                occ.append(Player(cue_xy, plan.shot.angle_deg, -10.0 + 400.0 * t))
            frames.append(_Frame(xyz, path, occ))
        end_frame = len(frames) - 1
        rec = shot_record(sim, plan)
        if golf:
            rec = golf_record(rec)
        log.append(rec)
        outcome = Outcome(
            record=rec,
            final={
                k: (float(x), float(y))
                for k, (x, y) in zip(sim.keys, sim.final_xy, strict=True)
                if not math.isnan(x)
            },
        )
        player = state.to_play
        state, respotted = next_state(state, outcome, table)
        events = [
            {**e.to_dict(), "frame": start_frame + math.ceil(e.time * fps - 1e-9)}
            for e in sim.events
        ]
        stroke_truth.append(
            {
                "index": stroke_index,
                "player": player,
                "plan": {
                    "kind": plan.kind,
                    "target": plan.target,
                    "pocket": plan.pocket,
                    "nominated": plan.nominated,
                },
                "shot": {
                    "angle_deg": plan.shot.angle_deg,
                    "speed_mps": plan.shot.speed,
                    "side": plan.shot.side,
                    "height": plan.shot.height,
                },
                "cue_ball_placed": list(placed) if placed is not None else None,
                "start_frame": start_frame,
                "end_frame": end_frame,
                "duration_s": sim.duration,
                "events": events,
                "potted": dict(sim.potted),
                "off_table": list(sim.off_table),
                "respotted": {k: list(v) for k, v in respotted.items()},
                "log": rec,
            }
        )
        if verbose:
            print(
                f"stroke {stroke_index}: {plan.kind} {plan.target} -> "
                f"{rec['potted']} {rec['off_table']} ({sim.duration:.1f} s)",
                file=sys.stderr,
            )
    # Last pause: respotted balls come back, then a moment of stillness.
    final_pos = dict(state.positions)
    hands = [Hand(xy) for xy in respotted.values()]
    for i in range(int(fps * 0.8)):
        frames.append(
            _Frame(xyz_of(final_pos), occluders=list(hands) if i < fps // 2 else [])
        )

    t_sim = time.perf_counter() - t_start
    truth = _render_and_write(
        out,
        frames,
        keys,
        camera,
        app,
        render_rng,
        fps,
        table,
        log,
        stroke_truth,
        verbose,
    )
    truth["seed"] = seed
    truth["timing_s"] = {
        "plan_and_physics": round(t_sim, 2),
        "total": round(time.perf_counter() - t_start, 2),
    }
    (out / "truth.json").write_text(json.dumps(truth, indent=1))
    return truth


def _render_and_write(
    out: Path,
    frames: list[_Frame],
    keys: tuple[str, ...],
    camera: Camera,
    app: Appearance,
    rng: np.random.Generator,
    fps: int,
    table: TableSpec,
    log: list[dict[str, Any]],
    strokes: list[dict[str, Any]],
    verbose: bool,
) -> dict[str, Any]:
    n = len(frames)
    pos_mm = np.full((n, len(keys), 3), np.nan, np.float32)
    pos_px = np.full((n, len(keys), 2), np.nan, np.float32)
    visible = np.zeros((n, len(keys)), np.float32)
    writer = cv2.VideoWriter(
        str(out / "video.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, camera.size
    )
    if not writer.isOpened():
        raise RuntimeError("cv2.VideoWriter could not open an mp4v writer")
    bar = ScoreBar() if camera.kind == "broadcast" else None
    names = tuple(name_of(k) for k in keys)
    frames_q: queue.Queue[np.ndarray | None] = queue.Queue(maxsize=8)

    def encode() -> None:
        while (item := frames_q.get()) is not None:
            writer.write(item)

    encoder = threading.Thread(target=encode, daemon=True)
    encoder.start()
    try:
        for i, fr in enumerate(frames):
            on = ~np.isnan(fr.xyz[:, 0])
            idx = np.nonzero(on)[0]
            path = None
            if fr.path is not None:
                path = fr.path[:, idx]
                # A ball that leaves mid-exposure is drawn at its last known place.
                path = np.where(np.isnan(path), fr.xyz[idx][None], path)
            balls = Balls(tuple(names[j] for j in idx), fr.xyz[idx], path)
            occ = [*fr.occluders, *([bar] if bar else [])]
            img, vis = render_frame_info(camera, balls, app, rng, occ)
            pos_mm[i, idx] = fr.xyz[idx]
            if fr.cut:
                white = camera.project(fr.xyz[:1])[0]
                img = close_up(img, np.nan_to_num(white, nan=0.0))
            else:
                pos_px[i, idx] = camera.project(fr.xyz[idx])
                visible[i, idx] = vis
            frames_q.put(img)
            if verbose and i % 200 == 0:
                print(f"frame {i}/{n}", file=sys.stderr)
    finally:
        frames_q.put(None)
        encoder.join()
        writer.release()
    write_frames(out / "frames.npz", keys, pos_mm, pos_px, visible)
    with open(out / "match_log.jsonl", "w", encoding="utf-8") as f:
        for rec in log:
            f.write(json.dumps(rec) + "\n")
    score = expected_score(out / "match_log.jsonl")
    (out / "expected_score.json").write_text(json.dumps(score, indent=1))
    (out / "calls.jsonl").write_text(
        "".join(json.dumps(c) + "\n" for c in referee_calls(strokes)),
        encoding="utf-8")
    corners = {
        k: camera.project(np.array([[x, y, 0.0]]))[0].tolist()
        for k, (x, y) in table.corners.items()
    }
    nose = {
        k: camera.project(np.array([[x, y, CUSHION_NOSE_HEIGHT_MM]]))[0].tolist()
        for k, (x, y) in table.corners.items()
    }
    calibration = {
        "camera": camera.to_dict(),
        "table": table.name,
        "homography_cloth": camera.homography_cloth().tolist(),
        "homography_note": "table mm on the cloth (z=0) -> UNDISTORTED pixels; "
        "undistort with camera K and dist first",
        "table_corners_px": corners,
        "table_corners_note": "playing-area corners on the cloth (z=0), distorted "
        "image pixels; table_corners_nose_px: the same corners on the cushion-nose "
        f"plane (z={CUSHION_NOSE_HEIGHT_MM} mm)",
        "table_corners_nose_px": nose,
    }
    (out / "calibration.json").write_text(json.dumps(calibration, indent=1))
    return {
        "version": TRUTH_VERSION,
        "fps": fps,
        "frame_count": n,
        "size": list(camera.size),
        "camera_kind": camera.kind,
        "table": table.name,
        "ball_radius_mm": table.ball_radius,
        "keys": list(keys),
        "names": list(names),
        "calibration": calibration,
        "appearance": {
            "cloth_bgr": list(app.cloth_bgr),
            "noise_sigma": app.noise_sigma,
        },
        "strokes": strokes,
        "cuts": _runs([fr.cut for fr in frames]),
        "files": {
            "video": "video.mp4",
            "frames": "frames.npz",
            "match_log": "match_log.jsonl",
            "expected_score": "expected_score.json",
            "calls": "calls.jsonl",
            "calibration": "calibration.json",
        },
    }


def _runs(flags: Sequence[bool]) -> list[list[int]]:
    """``[first, last]`` frame ranges where ``flags`` is true."""
    runs: list[list[int]] = []
    for i, on in enumerate(flags):
        if on and runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        elif on:
            runs.append([i, i])
    return runs
