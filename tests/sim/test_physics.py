"""pooltool-backed tests (skipped when the [sim] extra is not installed)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

pytest.importorskip("pooltool")

from calibration.table import OFFICIAL
from sim.physics import Shot, _to_pt, _to_table, simulate_stroke


def test_frame_conversion_round_trip() -> None:
    xy = np.array([[0.0, 0.0], [1460.5, 0.0], [-1784.5, 889.0]])
    np.testing.assert_allclose(_to_table(_to_pt(xy, OFFICIAL), OFFICIAL), xy)
    # Baulk-left corner is pooltool's origin.
    np.testing.assert_allclose(_to_pt([[-1784.5, 889.0]], OFFICIAL), [[0.0, 0.0]])


def test_the_corner_pockets_fall_where_the_table_geometry_says() -> None:
    from sim.physics import _pt_table

    table = _pt_table(OFFICIAL)
    falls = OFFICIAL.corner_falls()
    for pocket_id, name in (("lb", "baulk_left"), ("rt", "top_right")):
        pocket = table.pockets[pocket_id]
        centre = _to_table(np.asarray(pocket.center)[:2], OFFICIAL)[0]
        np.testing.assert_allclose(centre, falls[name], atol=1e-6)
        assert pocket.radius * 1000.0 == pytest.approx(OFFICIAL.corner_fall_radius_mm)


def test_straight_pot_into_top_left() -> None:
    # Ball on the line to the top-left corner; white behind it on the same line.
    corner = np.array(OFFICIAL.pockets["top_left"])
    obj = np.array([1200.0, 500.0])
    u = (corner - obj) / np.linalg.norm(corner - obj)
    white = obj - 600 * u
    angle = math.degrees(math.atan2(u[1], u[0]))
    sim = simulate_stroke(
        {"white": tuple(white), "red_01": tuple(obj)},
        Shot(angle, 2.0),
        np.random.default_rng(0),
        allow_off_table=False,
    )
    kinds = [e.kind for e in sim.events]
    assert kinds[0] == "strike" and "ball_ball" in kinds
    assert sim.potted.get("red_01") == "top_left"
    xyz, on = sim.positions(np.array([0.0, sim.duration]))
    np.testing.assert_allclose(xyz[0, :, :2], [white, obj], atol=1e-6)
    assert not on[1, 1]
    # The white moved along the aimed direction before contact.
    t_hit = next(e.time for e in sim.events if e.kind == "ball_ball")
    p, _ = sim.positions(np.array([t_hit * 0.5]))
    d = p[0, 0, :2] - white
    assert abs(math.degrees(math.atan2(d[1], d[0])) - angle) < 0.5


def test_events_match_pooltool() -> None:
    from sim import physics

    pos = {"white": (-1100.0, 0.0), "red_01": (0.0, 30.0), "blue": (500.0, -400.0)}
    sim = simulate_stroke(
        pos, Shot(1.5, 3.0), np.random.default_rng(0), allow_off_table=False
    )
    system = sim._segments[0].system
    collisions = [
        e
        for e in system.events
        if str(e.event_type)
        in ("ball_ball", "ball_linear_cushion", "ball_circular_cushion", "ball_pocket")
    ]
    assert len(collisions) == sum(e.kind != "strike" for e in sim.events)
    for ours, theirs in zip(
        [e for e in sim.events if e.kind != "strike"], collisions, strict=True
    ):
        assert ours.time == pytest.approx(float(theirs.time))
        assert ours.balls[0] == theirs.agents[0].id
    assert physics.POCKET_NAMES["lt"] == "top_left"


def test_same_seed_same_clip(tmp_path) -> None:
    from sim.clip import make_clip
    from sim.truth import load_clip

    a = make_clip(5, "broadcast", 1, tmp_path / "a", size=(320, 180), reds=6, fps=10)
    b = make_clip(5, "broadcast", 1, tmp_path / "b", size=(320, 180), reds=6, fps=10)
    assert a["strokes"] == b["strokes"]
    ca, cb = load_clip(tmp_path / "a"), load_clip(tmp_path / "b")
    np.testing.assert_array_equal(ca.positions_mm, cb.positions_mm)
    np.testing.assert_array_equal(ca.visible, cb.visible)
    assert (tmp_path / "a" / "video.mp4").read_bytes() == (
        tmp_path / "b" / "video.mp4"
    ).read_bytes()
    # Events in the truth carry frames inside their stroke.
    s = a["strokes"][0]
    assert all(s["start_frame"] <= e["frame"] <= s["end_frame"] for e in s["events"])


def test_cuts_show_a_close_up_and_leave_the_rest_of_the_clip_as_it_was(
        tmp_path) -> None:
    from sim.clip import make_clip
    from sim.truth import load_clip

    kw = dict(size=(320, 180), reds=6, fps=10)
    plain = make_clip(8, "broadcast", 3, tmp_path / "plain", **kw)
    cut = make_clip(8, "broadcast", 3, tmp_path / "cut", cuts=True, **kw)
    assert plain["cuts"] == []
    assert [s["log"] for s in cut["strokes"]] == [s["log"] for s in plain["strokes"]]
    cp, cc = load_clip(tmp_path / "plain"), load_clip(tmp_path / "cut")
    frames = [f for a, b in cut["cuts"] for f in range(a, b + 1)]
    assert len(frames) >= 10  # 1 to 2.5 s at 10 fps per cut
    assert not cc.visible[frames].any() and np.isnan(cc.positions_px[frames]).all()
    stroke_frames = [f for s in cut["strokes"]
                     for f in range(s["start_frame"], s["end_frame"] + 1)]
    assert not set(frames) & set(stroke_frames)
    assert cc.positions_mm.shape[0] == cp.positions_mm.shape[0] + len(frames)
    cap = cv2.VideoCapture(str(tmp_path / "cut" / "video.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, frames[0] - 1)
    _, before = cap.read()
    _, during = cap.read()
    cap.release()
    assert np.abs(before.astype(int) - during.astype(int)).mean() > 10
