"""Frames in, per-ball rows out: detection where the frame changed, then tracking.

Only the work a frame needs: each frame is compared (at quarter scale) with the last
frame that was examined; where nothing changed no detection runs and the balls there
keep their tracks; where something changed, only boxes around the change are
searched, and boxes around each moving ball (one rolling to a stop barely changes
the image). A full search runs on the first frame, after large changes, and now and
then while the tracker has lost a ball.
"""

from __future__ import annotations

import csv
import io
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.mapping import Calibration
from vision.detect import BARE_COVER, BallDetector
from vision.detections import Detections
from vision.identify import BallClassifier
from vision.kinds import BallKind
from vision.track import BallTracker, Release, Track, TrackStatus

CSV_HEADER = (
    "frame", "id", "kind", "x_mm", "y_mm", "px", "py", "visible", "conf",
    "bb_left", "bb_top", "bb_width", "bb_height",
)
"""Columns of ``tracks.csv``. ``frame`` counts from 1 and ``id`` from 1, as in
MOTChallenge; ``bb_*`` is the ball's image box (px); ``visible`` is 1 when the ball
was seen in that frame, 0 when it is held at its last place (hidden)."""


LOST_FRAMES = 5
"""A track unseen for more frames than this is a ball the tracker may have lost."""
SETTLE_FRAMES = 15
"""A ball come to rest is still looked at for this many frames: it may be creeping
to its final place (see ``Pipeline._moving_boxes``)."""


@dataclass(frozen=True)
class TrackRow:
    """One ball in one frame (a row of ``tracks.csv``)."""

    frame: int
    track_id: int
    kind: str
    x_mm: float
    y_mm: float
    px: float
    py: float
    visible: bool
    confidence: float
    radius_px: float

    def as_csv(self) -> list[str]:
        """The row's CSV fields in ``CSV_HEADER`` order."""
        r = self.radius_px
        return [
            str(self.frame), str(self.track_id), self.kind, f"{self.x_mm:.2f}",
            f"{self.y_mm:.2f}", f"{self.px:.2f}", f"{self.py:.2f}",
            str(int(self.visible)), f"{self.confidence:.3f}",
            f"{self.px - r:.1f}", f"{self.py - r:.1f}", f"{2 * r:.1f}", f"{2 * r:.1f}",
        ]


class Pipeline:
    """Detection and tracking of one clip from a calibrated camera.

    Args:
        cal: The camera's calibration.
        classifier: Ball classifier (default: ONNX model if present, else rules).
        change_threshold: Grey-level change (quarter scale) that counts as motion.
        full_every: Run a full search at least every this many frames (0: never).
        lost_every: While the tracker has lost a ball (unseen for more than
            ``LOST_FRAMES``: it may have stopped where nothing changes any more),
            or lately found one potted (it may have stopped in the jaws), a full
            search every this many frames (0: never).
        delay: Frames by which ``step``/``feed`` hold their output back.
    """

    def __init__(
        self,
        cal: Calibration,
        classifier: BallClassifier | None = None,
        change_threshold: float = 10.0,
        full_every: int = 0,
        lost_every: int = 15,
        delay: int = 8,
    ) -> None:
        self.detector = BallDetector(cal, classifier)
        self.tracker = BallTracker(cal.spec)
        self.change_threshold = change_threshold
        self.full_every = full_every
        self.lost_every = lost_every
        self._ref: np.ndarray | None = None
        self._since_full = 0
        self.frames_skipped = 0
        self.frames_partial = 0
        self.frames_full = 0
        self.delay = delay
        self._buffer: deque[tuple[int, list[TrackRow] | None]] = deque()

    def recalibrate(self, cal: Calibration) -> None:
        """Go on with a new calibration of the same table (camera bumped or cut).

        The tracks keep their table positions; their image positions are moved
        to where the new calibration puts them, the cloth is learnt again and the
        next frame is searched in full.
        """
        self.detector = BallDetector(cal, self.detector.classifier)
        self._ref = None
        for t in self.tracker.tracks:
            xy = t.state[:2] if t.anchor is None else t.anchor
            px = self.detector.view.to_image(np.asarray(xy, np.float64)[None])[0]
            if np.all(np.isfinite(px)):
                t.xy_px = px
                t.radius_px = float(self.detector.view.radius_px(px[None])[0])

    @property
    def classifier_description(self) -> str:
        """What classifies the balls (model or rules)."""
        return self.detector.classifier.description

    def _small(self, image: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = self.detector.view.roi
        grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        return cv2.resize(grey, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)

    def _regions(self, small: np.ndarray) -> list[tuple[int, int, int, int]] | None:
        """Pixel boxes that changed since the reference (None: search all)."""
        due = self.full_every and self._since_full >= self.full_every
        if self.lost_every and self._since_full >= self.lost_every:
            due = due or self.tracker.may_be_in_jaws() or any(
                (t.status == TrackStatus.HIDDEN and t.missed > LOST_FRAMES)
                or (t.kind == BallKind.WHITE and t.status == TrackStatus.POTTED)
                for t in self.tracker.tracks)
        if self._ref is None or due:
            return None
        diff = cv2.absdiff(small, self._ref) > self.change_threshold
        if diff.mean() > 0.25:
            return None
        if not diff.any():
            return []
        n, _, stats, _ = cv2.connectedComponentsWithStats(diff.astype(np.uint8))
        x0, y0 = self.detector.view.roi[:2]
        r = float(self.detector.view.radius_px(
            np.array([[x0, y0], self.detector.view.roi[2:]])).max())
        pad = int(3 * r) + 4
        boxes = []
        for i in range(1, n):
            bx, by, bw, bh, _ = stats[i]
            boxes.append((
                x0 + 4 * bx - pad, y0 + 4 * by - pad,
                x0 + 4 * (bx + bw) + pad, y0 + 4 * (by + bh) + pad,
            ))
        return _merge_boxes(boxes)

    def _moving_boxes(self) -> list[tuple[int, int, int, int]]:
        """Pixel boxes around where each moving ball is expected in this frame.

        A ball rolling to a stop changes the image too little to be seen by the
        frame difference, yet it is still moving: it is looked for each frame
        until the tracker has had it at rest for ``SETTLE_FRAMES`` (the tracker
        moves a rest place that the sightings show creeping). So is a ball at
        rest that a moving ball came near touching (``Track.touched_at``), for
        twice as long, until it is seen at its place again (``_may_creep``): feathered,
        it creeps a few mm to a new place (seed 524's red, 4 mm at half a mm a
        frame, its rest place moved only a quarter of the way, and the contact
        went unseen). A moving ball
        lately lost is looked for too, so that the frames in which it is not
        found count (one gone into a pocket is found potted). So is a ball at
        rest lately seen a little off its place, until the tracker moves its
        place there (``BallTracker._nudged``: seed 421's red, stirred 28 mm by
        the break, was seen there only on full searches, too seldom to move),
        and the white at rest lately seen far off it (``BallTracker._rolled``:
        seed 579's, stopped dead against the brown 217 mm away, changed the
        image there no more, and was seen there only now and then). So is
        the place of a ball lately lost into a pocket's jaws and held there
        (``BallTracker.held_by_jaws``), until it has been read bare or covered
        long enough to tell whether it dropped (``BallTracker.hidden_in_jaws``:
        seed 3198's brown, lost crawling into a near corner, dropped, and
        nothing changed in the image after; its frames went unsearched, it
        was never missed long enough to be looked for, and its pot was lost).
        """
        now = self.tracker.frame
        moving = [
            t for t in self.tracker.tracks
            if (t.anchor is None and t.status != TrackStatus.POTTED
                and t.missed <= LOST_FRAMES)
            or (t.anchor is not None and t.status == TrackStatus.SEEN and (
                (t.rest_since >= 0 and now - t.rest_since <= SETTLE_FRAMES)
                or (t.touched_at >= 0
                    and now - t.touched_at <= 2 * SETTLE_FRAMES
                    and _may_creep(t))))]
        nudge = self.tracker.config.nudge_frames
        off_place = [t.nudged[-1][1] for t in self.tracker.tracks
                     if t.anchor is not None and t.nudged
                     and now - t.nudged[-1][0] <= 2 * nudge]
        off_place += [t.rolling[-1][1] for t in self.tracker.tracks
                      if t.anchor is not None and t.rolling
                      and now - t.rolling[-1][0] <= 2]
        cfg = self.tracker.config
        off_place += [t.anchor for t in self.tracker.held_by_jaws()
                      if t.missed <= cfg.coast_frames + 2 * cfg.bare_frames]
        view = self.detector.view
        boxes = []
        if moving:
            state = np.array([t.state for t in moving])
            px = view.to_image(state[:, :2] + state[:, 2:])
            step = np.linalg.norm(view.to_image(state[:, :2]) - px, axis=1)
            for t, (x, y), s in zip(moving, px, step, strict=True):
                if np.isfinite(x + y + s):
                    boxes.append(_box(x, y, int(3 * t.radius_px + s) + 4))
        if off_place:
            px = view.to_image(np.array(off_place))
            for (x, y), r in zip(px, view.radius_px(px), strict=True):
                if np.isfinite(x + y + r):
                    boxes.append(_box(x, y, int(3 * r) + 4))
        for here, gate in self.tracker.pending():
            ring = here + gate * np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0],
                                           [0.0, -1.0], [0.0, 0.0]])
            px = view.to_image(ring)
            if np.isfinite(px).all():
                (x, y), r = px[-1], float(np.abs(px[:-1] - px[-1]).max())
                boxes.append(_box(x, y, int(r + 3 * view.radius_px(px[-1:]).max()) + 4))
        return boxes

    def detect(self, image: np.ndarray, frame: int) -> tuple[
            list[tuple[int, int, int, int]] | None, Detections | None]:
        """The detection half of ``process``: where to look, and what was found.

        Returns:
            ``(regions, detections)``: regions is None for a full search, ``[]``
            when nothing changed (then detections is None: no detection ran).
        """
        small = self._small(image)
        regions = self._regions(small)
        if regions is not None:
            regions = _merge_boxes(regions + self._moving_boxes())
        self._since_full += 1
        if regions is not None and not regions:
            self.frames_skipped += 1
            return regions, None
        if regions is None:
            self.frames_full += 1
            self._since_full = 1
        else:
            self.frames_partial += 1
        self._ref = small
        dets = self.detector.detect(image, frame, regions)
        hidden = self.tracker.hidden_in_jaws()
        if hidden:
            # where each is held: bare now (and everywhere it can be), or
            # covered?
            where = [self.tracker.jaws_places(t) for t in hidden]
            cover = np.split(self.detector.cover(image, np.concatenate(where)),
                             np.cumsum([len(w) for w in where])[:-1])
            places = np.array([w[0] for w in where])
            bare = np.array([bool(np.all(c <= BARE_COVER)) for c in cover])
            covered = np.array([bool(c[0] > BARE_COVER) for c in cover])
            dets = replace(dets, bare_mm=places[bare], covered_mm=places[covered])
        return regions, dets

    def track(self, frame: int, regions: list[tuple[int, int, int, int]] | None,
              dets: Detections | None) -> list[TrackRow]:
        """The tracking half of ``process``: this frame's rows."""
        if dets is None:
            self.tracker.idle()
        else:
            self.tracker.update(dets, regions)
        rows = []
        for t in self.tracker.active():
            px = t.xy_px
            xy = t.reported_mm
            rows.append(TrackRow(
                frame + 1, t.track_id, str(t.kind), float(xy[0]),
                float(xy[1]), float(px[0]), float(px[1]),
                t.status == TrackStatus.SEEN, t.confidence, t.radius_px,
            ))
        return rows

    def feed(self, frame: int, regions: list[tuple[int, int, int, int]] | None,
             dets: Detections | None, view: bool = True,
             ) -> list[tuple[int, list[TrackRow] | None]]:
        """Track one frame, with an output ``delay`` (see ``step``).

        Args:
            frame: Frame index, from 0, one more than the last.
            regions: From ``detect``.
            dets: From ``detect``.
            view: False when the calibrated view is not on screen (then no
                tracking is done: ``regions`` and ``dets`` are ignored).

        Returns:
            The frames that became final: ``(frame, rows)``, rows None for
            frames without the view; oldest first.
        """
        rows = self.track(frame, regions, dets) if view else None
        self._buffer.append((frame, rows))
        # (the tracker counts only the frames with the view: after a cut its
        # frames run behind these)
        lag = frame - self.tracker.frame
        for rel in self.tracker.releases if view else []:
            self._apply(rel, lag)
        for track_id, since in self.tracker.dropped if view else []:
            self._take_back(track_id, since + lag)
        out = []
        while len(self._buffer) > self.delay:
            out.append(self._buffer.popleft())
        return out

    def step(self, image: np.ndarray, frame: int, view: bool = True,
             ) -> list[tuple[int, list[TrackRow] | None]]:
        """Detect and track one frame, returning rows ``delay`` frames late.

        The delay lets a ball at rest that the tracker releases (it was seen to
        move away) be placed where it really was in the frames that showed the
        motion, instead of at its rest place: see ``vision.track.Release``.
        """
        regions, dets = self.detect(image, frame) if view else (None, None)
        return self.feed(frame, regions, dets, view)

    def flush(self) -> list[tuple[int, list[TrackRow] | None]]:
        """End of footage: the frames still held back."""
        out = list(self._buffer)
        self._buffer.clear()
        return out

    def _apply(self, rel: Release, lag: int = 0) -> None:
        """Put a released ball where it was seen in the buffered frames (the
        tracker's frame numbers, ``lag`` behind these)."""
        pts = {f + lag: p for f, p in rel.points}
        for k, (f, rows) in enumerate(self._buffer):
            if rows is None or f not in pts:
                continue
            p = pts[f]
            self._buffer[k] = (f, [
                replace(r, x_mm=float(p[0]), y_mm=float(p[1]), visible=True)
                if r.track_id == rel.track_id else r for r in rows])

    def _take_back(self, track_id: int, since: int) -> None:
        """A ball found gone since frame ``since`` (``BallTracker.dropped``):
        its rows from then on, in the buffered frames, are taken back."""
        for k, (f, rows) in enumerate(self._buffer):
            if rows is not None and f >= since:
                self._buffer[k] = (f, [r for r in rows if r.track_id != track_id])

    def process(self, image: np.ndarray, frame: int) -> list[TrackRow]:
        """Detect and track in one frame (index from 0); rows use MOT's 1-based."""
        regions, dets = self.detect(image, frame)
        return self.track(frame, regions, dets)

    def run(self, frames: Iterable[np.ndarray]) -> Iterator[list[TrackRow]]:
        """Process frames in order, yielding each frame's rows."""
        for i, image in enumerate(frames):
            yield self.process(image, i)


CREEP_MM = 0.75
"""A ball at rest seen this near its place since a moving ball touched it is not
creeping (``_may_creep``)."""


def _may_creep(t: Track) -> bool:
    """May ``t``, at rest, be creeping off its place since a moving ball touched
    it (``Track.touched_at``)? Yes until it is seen there again: its last
    sighting at rest since then lies within ``CREEP_MM`` of its place."""
    assert t.anchor is not None
    since = [p for f, p in t.near if f > t.touched_at]
    return not since or float(np.linalg.norm(since[-1] - t.anchor)) > CREEP_MM


def _box(x: float, y: float, pad: int) -> tuple[int, int, int, int]:
    """The pixel box of half-side ``pad`` around ``(x, y)``."""
    return int(x) - pad, int(y) - pad, int(x) + pad, int(y) + pad


def _merge_boxes(
    boxes: list[tuple[int, int, int, int]],
) -> list[tuple[int, int, int, int]]:
    """Merge overlapping boxes until none overlap."""
    out = [list(b) for b in boxes]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                    out[i] = [min(a[0], b[0]), min(a[1], b[1]),
                              max(a[2], b[2]), max(a[3], b[3])]
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return [tuple(b) for b in out]  # type: ignore[misc]


def rows_to_csv(rows: Iterable[TrackRow]) -> str:
    """CSV text (with header) of track rows."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for r in rows:
        w.writerow(r.as_csv())
    return buf.getvalue()
