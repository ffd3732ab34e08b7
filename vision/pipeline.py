"""Frames in, per-ball rows out: detection where the frame changed, then tracking.

Only the work a frame needs: each frame is compared (at quarter scale) with the last
frame that was examined; where nothing changed no detection runs and the balls there
keep their tracks; where something changed, only boxes around the change are
searched. A full search runs on the first frame and after large changes.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.mapping import Calibration
from vision.detect import BallDetector
from vision.identify import BallClassifier
from vision.track import BallTracker, TrackStatus

CSV_HEADER = (
    "frame", "id", "kind", "x_mm", "y_mm", "px", "py", "visible", "conf",
    "bb_left", "bb_top", "bb_width", "bb_height",
)
"""Columns of ``tracks.csv``. ``frame`` counts from 1 and ``id`` from 1, as in
MOTChallenge; ``bb_*`` is the ball's image box (px); ``visible`` is 1 when the ball
was seen in that frame, 0 when it is held at its last place (hidden)."""


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
    """

    def __init__(
        self,
        cal: Calibration,
        classifier: BallClassifier | None = None,
        change_threshold: float = 10.0,
        full_every: int = 0,
    ) -> None:
        self.detector = BallDetector(cal, classifier)
        self.tracker = BallTracker(cal.spec)
        self.change_threshold = change_threshold
        self.full_every = full_every
        self._ref: np.ndarray | None = None
        self._since_full = 0
        self.frames_skipped = 0
        self.frames_partial = 0
        self.frames_full = 0

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

    def process(self, image: np.ndarray, frame: int) -> list[TrackRow]:
        """Detect and track in one frame (index from 0); rows use MOT's 1-based."""
        small = self._small(image)
        regions = self._regions(small)
        if regions is not None and not regions:
            self.frames_skipped += 1
            for t in self.tracker.active():
                pass  # nothing moved: every ball keeps its state
        else:
            if regions is None:
                self.frames_full += 1
                self._since_full = 0
            else:
                self.frames_partial += 1
            dets = self.detector.detect(image, frame, regions)
            self.tracker.update(dets, regions)
            self._ref = small
        self._since_full += 1
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

    def run(self, frames: Iterable[np.ndarray]) -> Iterator[list[TrackRow]]:
        """Process frames in order, yielding each frame's rows."""
        for i, image in enumerate(frames):
            yield self.process(image, i)


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
