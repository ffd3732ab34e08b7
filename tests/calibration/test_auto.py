"""Automatic calibration on the real frames and on rendered ones, and the command."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from baulk.cli import main
from calibration import auto
from calibration.auto import (
    CORNER_ORDER,
    _baulk_line,
    _clearly_better,
    _drop_to_four,
    _lens_bow,
    _same_line,
    _with_baulk_line,
    auto_calibrate,
    check_frame,
    cloth_mask,
    distort_k1,
    find_outline,
    follow_frame,
    nose_corners_px,
    undistort_k1,
)
from calibration.bars import find_bars
from calibration.mapping import CalibrationError, load_calibration
from calibration.table import OFFICIAL
from calibration.verify import Verdict
from tests.calibration.frames import seen_px, truth_frame, truth_points

SMALL = (960, 540)

REAL = Path(__file__).parents[2].parent / "shared" / "real"
needs_real = pytest.mark.skipif(
    not (REAL / "labels.json").is_file(), reason=f"real frames not found at {REAL}"
)


def _labels() -> dict:
    return json.loads((REAL / "labels.json").read_text())


@needs_real
@pytest.mark.parametrize("name", ["overhead_eurosport.png", "broadcast_angle.png"])
def test_real_corners_within_8px(name: str) -> None:
    image = cv2.imread(str(REAL / name))
    cal = auto_calibrate(image)
    found = nose_corners_px(cal)
    for corner, px in _labels()[name]["table_corners_px"].items():
        assert np.linalg.norm(found[corner] - np.array(px)) < 8.0, corner


@needs_real
def test_real_check_frame_detects_a_bump() -> None:
    image = cv2.imread(str(REAL / "broadcast_angle.png"))
    cal = auto_calibrate(image)
    assert check_frame(cal, image).fits
    moved = cv2.warpAffine(image, np.float32([[1, 0, 25], [0, 1, 10]]), (1920, 1080))
    assert not check_frame(cal, moved).fits


@needs_real
def test_follow_frame_recalibrates_after_a_bump() -> None:
    image = cv2.imread(str(REAL / "overhead_eurosport.png"))
    cal = auto_calibrate(image)
    same = follow_frame(cal, image)
    assert same.fits and not same.recalibrated and same.calibration is cal
    moved = cv2.warpAffine(image, np.float32([[1, 0, -18], [0, 1, 12]]), (1920, 1080))
    after = follow_frame(cal, moved)
    assert after.recalibrated and after.fits, after.message
    shifted = nose_corners_px(after.calibration)
    for corner, px in nose_corners_px(cal).items():
        assert np.linalg.norm(shifted[corner] - px - (-18, 12)) < 3.0
    covered = image.copy()
    covered[:, :] = (30, 30, 30)
    kept = follow_frame(cal, covered)
    assert not kept.fits and not kept.recalibrated and kept.calibration is cal


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((540, 960, 3), np.uint8),
        np.full((540, 960, 3), (40, 200, 40), np.uint8),
    ],
)
def test_no_table_is_a_failure(image: np.ndarray) -> None:
    with pytest.raises(CalibrationError):
        auto_calibrate(image)


@pytest.mark.parametrize("seed", [1, 4])
def test_rendered_overhead_never_badly_wrong(seed: int) -> None:
    frame = truth_frame("overhead", seed, size=SMALL)
    pts = np.array(list(OFFICIAL.spots.values()))
    seen = seen_px(frame, pts)
    try:
        cal = auto_calibrate(frame.image)
    except CalibrationError:
        return
    err = np.linalg.norm(cal.image_to_table(seen) - pts, axis=1)
    assert err.max() < 50


def test_command_points_and_errors(tmp_path: Path) -> None:
    frame = truth_frame("broadcast", 3, size=SMALL)
    image_path = tmp_path / "frame.png"
    cv2.imwrite(str(image_path), frame.image)
    names = ["baulk_left", "baulk_right", "top_left", "top_right", "blue"]
    tab = np.array([OFFICIAL.named_points[n] for n in names])
    px = frame.camera.undistort_px(seen_px(frame, tab))
    points = tmp_path / "points.json"
    points.write_text(
        json.dumps({"points": dict(zip(names, px.tolist(), strict=True))})
    )
    out = tmp_path / "table.json"
    preview = tmp_path / "preview.png"
    argv = [
        "calibrate",
        str(image_path),
        "--points",
        str(points),
        "-o",
        str(out),
        "--preview",
        str(preview),
    ]
    assert main(argv) == 0
    cal = load_calibration(out)
    assert np.allclose(cal.image_to_table(px), tab, atol=0.5)
    assert cv2.imread(str(preview)).shape == frame.image.shape
    # degenerate points: error, nothing written
    points.write_text(json.dumps({"points": {"yellow": [1, 2], "brown": [3, 4]}}))
    out2 = tmp_path / "t2.json"
    assert (
        main(["calibrate", str(image_path), "--points", str(points), "-o", str(out2)])
        == 2
    )
    assert not out2.exists()
    assert main(["calibrate", str(tmp_path / "missing.png"), "-o", str(out2)]) == 2
    (tmp_path / "junk.png").write_bytes(b"not an image")
    assert main(["calibrate", str(tmp_path / "junk.png"), "-o", str(out2)]) == 2
    assert not out2.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_lens_bow_straightens_lines() -> None:
    size = (1920, 1080)
    pts = np.array([[300.0, 200.0], [1500.0, 900.0]])
    for k1 in (-0.1, 0.03):
        back = undistort_k1(distort_k1(pts, k1, size), k1, size)
        assert np.allclose(back, pts, atol=1e-3)
    t = np.linspace(0.0, 1.0, 80)[:, None]
    corners = np.array([[200.0, 150.0], [1720.0, 170.0], [1700.0, 930.0], [230, 900]])
    lines = [corners[i] + t * (corners[(i + 1) % 4] - corners[i]) for i in range(4)]
    edges = [distort_k1(line, -0.09, size) for line in lines]
    edges[0][10:20] += [0.0, 25.0]  # a ball on the cushion
    assert abs(_lens_bow(edges, size) + 0.09) < 0.005
    assert abs(_lens_bow(lines, size)) < 0.005


def test_drop_to_four() -> None:
    square = np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]])
    bumped = np.insert(square, 1, [50.0, -1.5], axis=0)  # a ball on a side
    assert np.allclose(_drop_to_four(bumped, 10000.0), square)
    pentagon = np.insert(square, 1, [50.0, -40.0], axis=0)
    assert _drop_to_four(pentagon, 10000.0) is None


@pytest.mark.parametrize("seed", [2, 3])
def test_rendered_overhead_accurate(seed: int) -> None:
    # near overhead: lens distortion from the cushions' bow, the edges' height
    # from the baulk line and the D (not tuned on these frames)
    frame = truth_frame("overhead", seed, size=SMALL)
    pts = truth_points()
    cal = auto_calibrate(frame.image)
    err = np.linalg.norm(cal.image_to_table(seen_px(frame, pts)) - pts, axis=1)
    assert np.sqrt(np.mean(err**2)) < 5.0
    assert any(note.startswith("near overhead") for note in cal.notes)


def test_baulk_line_replaces_a_hidden_baulk_cushion() -> None:
    frame = truth_frame("broadcast", 6, size=SMALL)
    table = np.array([OFFICIAL.corners[n] for n in CORNER_ORDER])
    nose = frame.camera.project_cloth(table, 37.0)
    cloth = frame.camera.project_cloth(table, 0.0)
    gray = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    outline = find_outline(frame.image)
    wrong = nose.copy()
    wrong[:2, 1] += 15.0  # the baulk cushion taken at a score bar's edge
    line = _baulk_line(gray, outline, wrong, OFFICIAL)
    assert line is not None
    remade = _with_baulk_line(line, wrong, OFFICIAL)
    assert remade is not None
    assert np.all(np.linalg.norm(remade[:2] - cloth[:2], axis=1) < 4.0)
    assert np.allclose(remade[2:], wrong[2:], atol=0.5)
    # named the other way round, there is no baulk line near the other end
    assert _baulk_line(gray, outline, nose[[2, 3, 0, 1]], OFFICIAL) is None


def test_same_line() -> None:
    line = np.array([0.6, 0.8, -500.0])
    assert _same_line(line, -line)
    assert _same_line(line, line + [0.0, 0.0, 2.0])
    assert not _same_line(line, line + [0.0, 0.0, 5.0])
    assert not _same_line(line, np.array([0.8, 0.6, -500.0]))


def test_cloth_hued_score_bar_over_the_baulk_cushion() -> None:
    # a dark bar of the cloth's hue joins the cloth region unless it is taken out
    frame = truth_frame("broadcast", 6, size=SMALL)
    image = frame.image.copy()
    table = np.array([OFFICIAL.corners[n] for n in CORNER_ORDER])
    baulk = frame.camera.project_cloth(table[:2], 37.0)
    y0 = int(baulk[:, 1].min()) - 12
    x0, x1 = int(baulk[:, 0].min()) - 40, int(baulk[:, 0].max()) + 40
    image[y0 : y0 + 30, x0:x1] = (14, 87, 24)
    mask, scale = cloth_mask(image, tuple(find_bars(image)))
    rows = slice(int((y0 + 3) * scale), int((y0 + 27) * scale))
    assert mask[rows, int(x0 * scale) : int(x1 * scale)].mean() < 0.05
    pts = truth_points()
    cal = auto_calibrate(image)
    err = np.linalg.norm(cal.image_to_table(seen_px(frame, pts)) - pts, axis=1)
    assert np.sqrt(np.mean(err**2)) < 15.0


def _verdict(found: int, offset: float) -> Verdict:
    return Verdict(True, "", offset, np.ones(4), 0, found)


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        ((80, 0.3), (20, 0.7), [0]),
        ((20, 0.7), (80, 0.3), [1]),
        ((80, 0.3), (70, 0.6), [0, 1]),  # not clearly more chalk
        ((80, 0.8), (20, 0.3), [0, 1]),  # more chalk, but farther from it
    ],
)
def test_both_ends_fit_the_clearly_better_one_kept(
    monkeypatch: pytest.MonkeyPatch,
    first: tuple[int, float],
    second: tuple[int, float],
    kept: list[int],
) -> None:
    frame = truth_frame("overhead", 2, size=SMALL)
    cals = [auto_calibrate(frame.image)] * 2
    cals = [replace(c, notes=(str(k),)) for k, c in enumerate(cals)]
    verdicts = iter([_verdict(*first), _verdict(*second)])
    monkeypatch.setattr(auto, "verify", lambda *_: next(verdicts))
    chosen = _clearly_better(frame.image, cals, 37.0)
    assert [int(c.notes[0]) for c in chosen] == kept
