"""The vision pipeline's search policy: only the work a frame needs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from baulk.video import calibration_for
from calibration.table import OFFICIAL
from vision.detections import Detections
from vision.kinds import KINDS, NONE_CLASS, BallKind
from vision.pipeline import LOST_FRAMES, SETTLE_FRAMES, Pipeline
from vision.track import TrackStatus

SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "overhead_seed1"


@pytest.mark.parametrize(("lost", "full_searches"), [
    (None, 1), ("hidden", 2), ("potted", 2), ("in hand", 2), ("potted colour", 1)])
def test_a_still_table_is_searched_again_only_while_a_ball_is_lost(
        lost: str | None, full_searches: int, overhead_first_frame: np.ndarray
) -> None:
    image = overhead_first_frame
    cal = calibration_for(str(SAMPLE / "calibration.json"), "official", image)
    pipe = Pipeline(cal, lost_every=4)
    regions, dets = pipe.detect(image, 0)
    assert regions is None  # the first frame: a full search
    for f in range(3):  # tracks start on repeated sightings
        pipe.track(f, None, dets)
    assert len(pipe.tracker.active()) >= 10
    t = pipe.tracker.tracks[0]
    if lost == "hidden":  # lost: it may have stopped where nothing changes
        t.status, t.missed = TrackStatus.HIDDEN, LOST_FRAMES + 1
    elif lost == "potted":  # found potted a moment ago: it may be in the jaws
        t.status, t.anchor, t.potted_at = TrackStatus.POTTED, None, 2
    elif lost is not None:  # potted long ago: only the cue ball comes back
        kind = BallKind.WHITE if lost == "in hand" else BallKind.PINK
        t = next(t for t in pipe.tracker.tracks if t.kind == kind)
        t.status, t.anchor, t.potted_at = TrackStatus.POTTED, None, -1000
    searches = [pipe.detect(image, f)[0] for f in range(1, 6)]
    assert searches.count(None) == full_searches - 1
    assert all(r in ([], None) for r in searches)  # the same image: nothing changed
    assert pipe.frames_full == full_searches


def _tracked_still_table(image: np.ndarray) -> Pipeline:
    """A pipeline that has tracked the balls of ``image`` for three frames, and
    is never due a full search."""
    cal = calibration_for(str(SAMPLE / "calibration.json"), "official", image)
    pipe = Pipeline(cal, lost_every=0)
    _, dets = pipe.detect(image, 0)
    for f in range(3):
        pipe.track(f, None, dets)
    return pipe


def _searched_at(pipe: Pipeline, image: np.ndarray, xy_mm: np.ndarray
                 ) -> tuple[bool, list[tuple[int, int, int, int]]]:
    """Is table point ``xy_mm`` inside a box searched in the next frame (the
    same image: nothing changed)? And the boxes."""
    at = pipe.detector.view.to_image(np.asarray(xy_mm)[None])[0]
    regions, _ = pipe.detect(image, 3)
    assert regions is not None
    return any(x0 <= at[0] < x1 and y0 <= at[1] < y1
               for x0, y0, x1, y1 in regions), regions


@pytest.mark.parametrize(("status", "missed", "searched"), [
    (TrackStatus.SEEN, 0, True),      # rolling to a stop: barely changes the image
    (TrackStatus.HIDDEN, 2, True),    # lately lost: its frames unseen must count
    (TrackStatus.HIDDEN, LOST_FRAMES + 1, False),  # lost: left to the full searches
])
def test_a_moving_ball_is_searched_where_the_image_did_not_change(
        status: TrackStatus, missed: int, searched: bool,
        overhead_first_frame: np.ndarray) -> None:
    pipe = _tracked_still_table(overhead_first_frame)
    t = pipe.tracker.tracks[0]
    t.anchor, t.status, t.missed = None, status, missed
    t.state = np.array([*t.state[:2], 1.0, 0.0])  # creeping, 1 mm a frame
    inside, regions = _searched_at(pipe, overhead_first_frame,
                                   t.state[:2] + t.state[2:])
    assert inside == searched
    assert (regions == []) == (not searched)


@pytest.mark.parametrize(("seen_ago", "searched"), [(1, True), (30, False)])
def test_a_ball_lately_seen_off_its_place_is_searched_there(
        seen_ago: int, searched: bool, overhead_first_frame: np.ndarray) -> None:
    # seed 421: a red stirred 28 mm by the break stopped where nothing changes
    pipe = _tracked_still_table(overhead_first_frame)
    t = pipe.tracker.tracks[0]
    off = t.anchor + (28.0, 10.0)
    t.nudged.append((pipe.tracker.frame - seen_ago, off))
    assert _searched_at(pipe, overhead_first_frame, off)[0] == searched


@pytest.mark.parametrize(("seen_ago", "searched"), [(1, True), (4, False)])
def test_the_white_lately_seen_far_off_its_place_is_searched_there(
        seen_ago: int, searched: bool, overhead_first_frame: np.ndarray) -> None:
    # seed 579: the white, stopped dead against the brown 217 mm away, changed
    # the image there no more, and was seen there only now and then
    pipe = _tracked_still_table(overhead_first_frame)
    t = pipe.tracker.tracks[0]
    off = t.anchor + (217.0, 0.0)
    t.rolling = [(pipe.tracker.frame - seen_ago, off)]
    assert _searched_at(pipe, overhead_first_frame, off)[0] == searched


@pytest.mark.parametrize(("touched_ago", "searched"), [
    (None, False), (0, True), (2 * SETTLE_FRAMES, True),
    (2 * SETTLE_FRAMES + 1, False)])
def test_a_ball_lately_touched_is_searched_while_it_may_creep(
        touched_ago: int | None, searched: bool,
        overhead_first_frame: np.ndarray) -> None:
    # seed 524: a red feathered by the white crept 4 mm, where nothing
    # changes to the frame difference; its place moved a quarter of the way
    pipe = _tracked_still_table(overhead_first_frame)
    t = pipe.tracker.tracks[0]
    for _ in range(2 * SETTLE_FRAMES + 2):
        pipe.tracker.idle()  # (frames in which nothing changed)
    if touched_ago is not None:
        t.touched_at = pipe.tracker.frame - touched_ago
    assert _searched_at(pipe, overhead_first_frame, t.anchor)[0] == searched


@pytest.mark.parametrize(("seen_off_mm", "searched"), [
    (None, True),  # not seen since it was touched: it may be creeping
    (3.0, True),   # seen 3 mm off its place: creeping
    (0.2, False),  # seen at its place: not
])
def test_a_ball_touched_is_searched_until_seen_at_its_place(
        seen_off_mm: float | None, searched: bool,
        overhead_first_frame: np.ndarray) -> None:
    pipe = _tracked_still_table(overhead_first_frame)
    t = pipe.tracker.tracks[0]
    for _ in range(3):
        pipe.tracker.idle()
    t.touched_at = pipe.tracker.frame - 2
    if seen_off_mm is not None:
        t.near.append((pipe.tracker.frame, t.anchor + (seen_off_mm, 0.0)))
    assert _searched_at(pipe, overhead_first_frame, t.anchor)[0] == searched


@pytest.mark.parametrize(("by_the_jaws", "searches", "searched"), [
    (True, 0, True), (True, 13, True), (True, 14, False), (False, 0, False)])
def test_a_ball_held_by_the_jaws_is_searched_until_its_drop_can_be_told(
        by_the_jaws: bool, searches: int, searched: bool,
        overhead_first_frame: np.ndarray) -> None:
    # seed 3198: the brown, lost crawling into a near corner, was held there;
    # it had dropped, and nothing changed in the image after: its frames went
    # unsearched, it was never missed long enough for its place to be read
    # bare (``BallTracker.hidden_in_jaws``), and its pot was lost
    pipe = _tracked_still_table(overhead_first_frame)
    cfg = pipe.tracker.config
    assert cfg.coast_frames + 2 * cfg.bare_frames == 14
    t = pipe.tracker.tracks[0]
    corner = np.array(OFFICIAL.pockets["baulk_right"])
    t.anchor = corner * 0.97 if by_the_jaws else np.array([0.0, -700.0])
    t.status, t.missed = TrackStatus.HIDDEN, 1 + searches
    assert _searched_at(pipe, overhead_first_frame, t.anchor)[0] == searched


def test_a_ball_found_gone_from_the_jaws_leaves_the_rows_from_when_it_went(
        overhead_first_frame: np.ndarray) -> None:
    # the tracker finds a ball held hidden in the jaws gone once its place has
    # been seen bare a few frames in a row (``BallTracker.hidden_in_jaws``):
    # the rows already made since the first of them, held back by the
    # pipeline's delay, lose it
    cal = calibration_for(str(SAMPLE / "calibration.json"), "official",
                          overhead_first_frame)
    pipe = Pipeline(cal)
    where = (1730.7, -869.6)

    def dets(red: bool, bare: bool | None = None) -> Detections:
        xy = np.array([where, (0.0, 400.0)] if red else [(0.0, 400.0)])
        probs = np.full((len(xy), NONE_CLASS + 1), 0.002, np.float32)
        probs[:, KINDS.index(BallKind.BLUE)] = 1.0 - 0.002 * NONE_CLASS
        if red:
            probs[0] = 0.002
            probs[0, KINDS.index(BallKind.RED)] = 1.0 - 0.002 * NONE_CLASS
        places = None if bare is None else np.array([where] if bare else [])
        return Detections(xy * 0.5 + 900, xy, np.full(len(xy), 10.0), probs,
                          bare_mm=places)

    frames = [dets(True)] * 16 + [dets(False)] * 6 + [dets(False, False)] * 2
    first_bare = len(frames)
    frames += [dets(False, True)] * pipe.tracker.config.bare_frames + [dets(False)] * 4
    out = []
    for f, d in enumerate(frames):
        out += pipe.feed(f, None, d)
    out += pipe.flush()
    has_red = [any(r.kind == "red" for r in rows or []) for _, rows in out]
    assert has_red[first_bare - 10:] == [True] * 10 + [False] * (
        len(frames) - first_bare)


@pytest.mark.parametrize(("place", "round_it", "one_of_them", "bare", "covered"), [
    (0.05, 0.05, 0.05, True, False),   # nowhere it can be shows a ball: gone
    (0.05, 0.05, 0.9, False, False),   # one place in its reach shows one
    (0.9, 0.05, 0.05, False, True),    # its place shows it
    (np.nan, 0.05, 0.05, False, False),  # its place out of sight
])
def test_a_ball_stopped_unseen_in_the_jaws_is_bare_only_if_all_it_can_reach_is(
        place: float, round_it: float, one_of_them: float, bare: bool,
        covered: bool, overhead_first_frame: np.ndarray,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a ball lost slowly into the jaws, taken to have stopped there unseen
    # (``Track.stopped_unseen``), may lie a few mm on from where it was last
    # seen: its place alone reading bare does not say it dropped (seed 1058)
    pipe = _tracked_still_table(overhead_first_frame)
    t = pipe.tracker.tracks[0]
    t.anchor = np.array([-1764.6, -857.8])
    t.state = np.array([*t.anchor, 0.0, 0.0])
    t.status, t.missed = TrackStatus.HIDDEN, pipe.tracker.config.coast_frames
    t.stopped_unseen, t.reach_mm = True, 26.0
    n = len(pipe.tracker.jaws_places(t))
    assert n > 2
    covers = np.array([place] + [round_it] * (n - 2) + [one_of_them])
    pipe.recalibrate(pipe.detector.view.cal)  # (the next frame searched in full)
    monkeypatch.setattr(pipe.detector, "cover", lambda image, xy_mm: covers)
    _, dets = pipe.detect(overhead_first_frame, 3)
    assert dets is not None and dets.bare_mm is not None
    assert dets.covered_mm is not None
    assert len(dets.bare_mm) == bare and len(dets.covered_mm) == covered
    for shown in (dets.bare_mm, dets.covered_mm):
        assert all(np.allclose(p, t.anchor) for p in shown)


@pytest.mark.parametrize("cut_frames", [0, 3])
def test_a_ball_released_after_a_camera_cut_is_put_right_in_its_frames(
        cut_frames: int, overhead_first_frame: np.ndarray) -> None:
    # a ball at rest seen moving away is held at its place until surely
    # moving, then put back where it was seen in the frames held back
    # (``vision.track.Release``); the tracker counts only the frames with the
    # view, so after a cut its frames run behind the pipeline's
    cal = calibration_for(str(SAMPLE / "calibration.json"), "official",
                          overhead_first_frame)
    pipe = Pipeline(cal)

    def dets(white_x: float) -> Detections:
        xy = np.array([(white_x, 100.0), (0.0, 400.0)])
        probs = np.full((2, NONE_CLASS + 1), 0.002, np.float32)
        for i, kind in enumerate((BallKind.WHITE, BallKind.BLUE)):
            probs[i, KINDS.index(kind)] = 1.0 - 0.002 * NONE_CLASS
        return Detections(xy * 0.5 + 900, xy, np.full(2, 10.0), probs)

    out = []
    f = 0
    for _ in range(10):
        out += pipe.feed(f, None, dets(-1000.0))
        f += 1
    for _ in range(cut_frames):
        out += pipe.feed(f, None, None, view=False)
        f += 1
    moving_from = f
    for k in range(1, 8):
        out += pipe.feed(f, None, dets(-1000.0 + 40.0 * k))
        f += 1
    out += pipe.flush()
    white = {g: next(r.x_mm for r in rows if r.kind == "white")
             for g, rows in out if rows}
    assert [round(white[g]) for g in range(moving_from, moving_from + 3)] == [
        -960, -920, -880]
