"""The committed sample clips: their truth is consistent and matches the video."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from sim.camera import Camera
from sim.truth import load_clip

SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"
CLIPS = sorted(p.parent for p in SAMPLES.glob("*/truth.json"))


def test_samples_exist() -> None:
    assert len(CLIPS) >= 2
    kinds = {load_clip(c).meta["camera_kind"] for c in CLIPS}
    assert kinds == {"overhead", "broadcast"}
    total = sum(f.stat().st_size for f in SAMPLES.rglob("*") if f.is_file())
    assert total < 40e6


@pytest.mark.parametrize("folder", CLIPS, ids=lambda p: p.name)
def test_truth_consistent(folder: Path) -> None:
    clip = load_clip(folder)
    meta = clip.meta
    n = meta["frame_count"]
    assert clip.positions_mm.shape == (n, len(clip.keys), 3)
    assert meta["size"] == [1920, 1080]
    camera = Camera.from_dict(meta["calibration"]["camera"])
    on = clip.on_table
    px = camera.project(clip.positions_mm[on].astype(np.float64))
    np.testing.assert_allclose(px, clip.positions_px[on], atol=0.05)
    assert np.all((clip.visible >= 0) & (clip.visible <= 1))
    assert np.all(clip.visible[~on] == 0)
    shots = [r for r in clip.match_log if r["type"] == "shot"]
    assert clip.match_log[0]["type"] == "frame_start"
    assert len(shots) == len(clip.strokes)
    last = -1
    for stroke, shot in zip(clip.strokes, shots, strict=True):
        assert last < stroke["start_frame"] <= stroke["end_frame"] < n
        last = stroke["end_frame"]
        assert stroke["log"] == shot
        for ev in stroke["events"]:
            assert stroke["start_frame"] <= ev["frame"] <= stroke["end_frame"]
            if ev["kind"] == "pocket":
                i = clip.keys.index(ev["balls"][0])
                assert not on[ev["frame"] + 1 :, i][
                    : stroke["end_frame"] - ev["frame"]
                ].any()
        potted = [(p["ball"], p["pocket"]) for p in shot["potted"]]
        pocket_events = [
            (e["balls"][0].split("_")[0], e["pocket"])
            for e in stroke["events"]
            if e["kind"] == "pocket"
        ]
        assert sorted(potted) == sorted(pocket_events)
        # Balls rest where the log says at the end of the stroke.
        end = clip.positions_mm[stroke["end_frame"]]
        for name, xy in shot["positions"].items():
            if name == "red":
                continue
            i = clip.keys.index(name)
            np.testing.assert_allclose(end[i, :2], xy, atol=0.1)


@pytest.mark.parametrize("folder", CLIPS, ids=lambda p: p.name)
def test_video_matches_truth(folder: Path) -> None:
    clip = load_clip(folder)
    cap = cv2.VideoCapture(str(folder / "video.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == clip.meta["frame_count"]
    r_mm = clip.meta["ball_radius_mm"]
    camera = Camera.from_dict(clip.meta["calibration"]["camera"])
    checked = 0
    for index in range(0, 12):
        ok, frame = cap.read()
        assert ok
        if index % 4:
            continue
        img = frame.astype(float)
        for i in np.nonzero(clip.visible[index] > 0.99)[0]:
            c = clip.positions_px[index, i]
            r = camera.ball_radius_px(clip.positions_mm[index, i : i + 1], r_mm)[0]
            yy, xx = np.mgrid[0 : img.shape[0], 0 : img.shape[1]]
            y0, x0 = int(c[1]), int(c[0])
            sl = np.s_[
                y0 - 3 * int(r) : y0 + 3 * int(r), x0 - 3 * int(r) : x0 + 3 * int(r)
            ]
            d = np.hypot(xx[sl] - c[0], yy[sl] - c[1])
            inside = img[sl][d < 0.5 * r].mean(axis=0)
            ring = img[sl][(d > 1.6 * r) & (d < 2.2 * r)]
            cloth = np.median(ring, axis=0)
            assert np.abs(inside - cloth).sum() > 40, (index, clip.keys[i])
            checked += 1
    assert checked > 10
