"""One track per ball: Kalman motion, assignment, and the snooker constraints.

Each track carries a fixed kind. Tracks are matched to detections with
``scipy.optimize.linear_sum_assignment`` on a cost of Mahalanobis distance (constant
velocity Kalman filter, table mm) plus the detection's disbelief in the track's kind.
New balls are given kinds by an assignment to the free "slots" (one white, one of
each colour, at most 15 reds). A ball that is not seen stays where it was (balls at
rest under a cue or an arm), unless it vanished moving into a pocket: then it is
potted. A potted colour that shows up again (re-spotted) gets its old track back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.table import TableSpec
from vision.detections import Detections
from vision.kinds import KINDS, MAX_COUNT, BallKind

INF = 1e6


class TrackStatus(StrEnum):
    """Where a tracked ball is."""

    SEEN = "seen"
    HIDDEN = "hidden"
    POTTED = "potted"


@dataclass
class Track:
    """A tracked ball (mutable, owned by the tracker).

    Attributes:
        track_id: Positive id, unique in the clip.
        kind: The ball's kind.
        state: (4,) float64 Kalman state x, y (mm), vx, vy (mm per frame).
        cov: (4, 4) float64 state covariance.
        status: Seen, hidden or potted.
        xy_px: (2,) float64 last image position, px.
        radius_px: Last image radius, px.
        confidence: Last detection's probability of ``kind`` (0-1).
        missed: Frames since last seen.
        meas_mm: (2,) float64 last measured position, table mm (the detection,
            not the filter: a ball that stops dead is not carried on by the
            filter's velocity), or None before the first.
    """

    track_id: int
    kind: BallKind
    state: np.ndarray
    cov: np.ndarray
    status: TrackStatus = TrackStatus.SEEN
    xy_px: np.ndarray = field(default_factory=lambda: np.zeros(2))
    radius_px: float = 10.0
    confidence: float = 0.0
    missed: int = 0
    meas_mm: np.ndarray | None = None

    @property
    def reported_mm(self) -> np.ndarray:
        """(2,) position to report, table mm: the last measurement when the ball
        was seen this frame, else the filter's state."""
        if self.status == TrackStatus.SEEN and self.meas_mm is not None:
            return self.meas_mm
        return self.state[:2]

    @property
    def xy_mm(self) -> np.ndarray:
        """(2,) position, table mm."""
        return self.state[:2]

    @property
    def speed(self) -> float:
        """Speed, mm per frame."""
        return float(np.hypot(self.state[2], self.state[3]))


@dataclass(frozen=True)
class TrackerConfig:
    """Tuning of the tracker.

    Attributes:
        meas_sigma_mm: Detection position noise, mm.
        accel_sigma_mm: Process noise (acceleration per frame), mm.
        gate: Mahalanobis gate (sigmas).
        gate_min_mm: Matches within this distance are always allowed.
        colour_weight: Weight of -log P(kind) in the cost.
        pocket_mm: A ball lost within this distance of a pocket is potted.
        min_ball_prob: Detections less likely to be balls start no track.
    """

    meas_sigma_mm: float = 4.0
    accel_sigma_mm: float = 8.0
    gate: float = 6.0
    gate_min_mm: float = 30.0
    colour_weight: float = 2.0
    pocket_mm: float = 110.0
    min_ball_prob: float = 0.6


class BallTracker:
    """Tracks every ball of one clip.

    Args:
        spec: Table geometry (pockets, spots).
        config: Tuning.
    """

    def __init__(self, spec: TableSpec, config: TrackerConfig | None = None) -> None:
        self.spec = spec
        self.config = config or TrackerConfig()
        self.tracks: list[Track] = []
        self._next_id = 1
        c = self.config
        self._f = np.eye(4)
        self._f[0, 2] = self._f[1, 3] = 1.0
        q = c.accel_sigma_mm**2
        self._q = np.diag([q / 4, q / 4, q, q])
        self._h = np.eye(2, 4)
        self._r = np.eye(2) * c.meas_sigma_mm**2
        self._pockets = np.array(list(spec.pockets.values()))

    def active(self) -> list[Track]:
        """Tracks of balls on the table (seen or hidden)."""
        return [t for t in self.tracks if t.status != TrackStatus.POTTED]

    def _predict(self, t: Track) -> None:
        t.state = self._f @ t.state
        t.cov = self._f @ t.cov @ self._f.T + self._q

    def _correct(self, t: Track, z: np.ndarray) -> None:
        s = self._h @ t.cov @ self._h.T + self._r
        k = t.cov @ self._h.T @ np.linalg.inv(s)
        t.state = t.state + k @ (z - self._h @ t.state)
        t.cov = (np.eye(4) - k @ self._h) @ t.cov

    def _new_track(self, kind: BallKind, z: np.ndarray) -> Track:
        cov = np.diag([self.config.meas_sigma_mm**2] * 2 + [50.0**2] * 2)
        t = Track(self._next_id, kind, np.array([z[0], z[1], 0.0, 0.0]), cov)
        self._next_id += 1
        self.tracks.append(t)
        return t

    def update(
        self,
        dets: Detections,
        regions_px: Sequence[tuple[int, int, int, int]] | None = None,
    ) -> list[Track]:
        """Advance one frame with its detections.

        Args:
            dets: This frame's detections.
            regions_px: When detection only looked at some pixel boxes, those boxes:
                tracks outside them are left as they were.

        Returns:
            The active tracks after the update.
        """
        c = self.config
        pool = []
        for t in self.active():
            if regions_px is not None and not _inside(t.xy_px, regions_px):
                continue
            self._predict(t)
            pool.append(t)
        ok = np.isfinite(dets.xy_mm).all(axis=1) & (dets.ball_prob >= 0.3)
        idx = np.flatnonzero(ok)
        z = dets.xy_mm[idx]
        probs = dets.probs[idx, : len(KINDS)]
        matched_t: set[int] = set()
        matched_d: set[int] = set()
        if pool and len(idx):
            cost = np.full((len(pool), len(idx)), INF)
            for i, t in enumerate(pool):
                s = self._h @ t.cov @ self._h.T + self._r
                d = z - t.state[:2]
                m2 = np.einsum("ni,ij,nj->n", d, np.linalg.inv(s), d)
                dist = np.linalg.norm(d, axis=1)
                allowed = (m2 < c.gate**2) | (dist < c.gate_min_mm)
                kp = probs[:, KINDS.index(t.kind)]
                cc = np.sqrt(m2) - c.colour_weight * np.log(kp + 1e-3)
                # never swap colours: a detection sure of another colour is refused
                sure_other = (probs.max(1) > 0.9) & (kp < 0.02)
                cost[i] = np.where(allowed & ~sure_other, cc, INF)
            cost = np.nan_to_num(cost, nan=INF, posinf=INF)
            rows, cols = linear_sum_assignment(cost)
            for r_, c_ in zip(rows, cols, strict=True):
                if cost[r_, c_] >= INF:
                    continue
                t = pool[r_]
                j = idx[c_]
                self._correct(t, dets.xy_mm[j])
                self._seen(t, dets, j)
                matched_t.add(r_)
                matched_d.add(c_)
        for i, t in enumerate(pool):
            if i in matched_t:
                continue
            t.missed += 1
            near_pocket = np.min(np.linalg.norm(self._pockets - t.state[:2], axis=1))
            if near_pocket < c.pocket_mm + 3 * t.speed and (
                t.speed > 1.0 or near_pocket < c.pocket_mm * 0.8
            ):
                t.status = TrackStatus.POTTED
            else:
                # at rest under an occluder (or lost): stays put
                t.status = TrackStatus.HIDDEN
                t.state[2:] = 0.0
                t.cov[2:, 2:] = np.eye(2) * 1.0
        free = [k for k in range(len(idx)) if k not in matched_d]
        self._start_tracks(dets, idx[free] if free else np.zeros(0, int))
        return self.active()

    def _seen(self, t: Track, dets: Detections, j: int) -> None:
        t.status = TrackStatus.SEEN
        t.missed = 0
        t.meas_mm = dets.xy_mm[j].astype(np.float64).copy()
        t.xy_px = dets.xy_px[j].copy()
        t.radius_px = float(dets.radius_px[j])
        t.confidence = float(dets.probs[j, KINDS.index(t.kind)])

    def _start_tracks(self, dets: Detections, cand: np.ndarray) -> None:
        """Give unmatched detections kinds (free slots) and tracks."""
        c = self.config
        cand = np.array([j for j in cand if dets.ball_prob[j] >= c.min_ball_prob], int)
        if len(cand) == 0:
            return
        counts = {k: 0 for k in KINDS}
        for t in self.active():
            counts[t.kind] += 1
        slots: list[BallKind] = []
        for k in KINDS:
            free = MAX_COUNT[k] - counts[k]
            # a hidden ball of this kind may have moved: it can be taken over
            hidden = [t for t in self.active() if t.kind == k
                      and t.status == TrackStatus.HIDDEN]
            slots += [k] * min(max(free, 0) + len(hidden), len(cand))
        if not slots:
            return
        probs = dets.probs[cand, : len(KINDS)]
        cost = np.array(
            [[-np.log(probs[i, KINDS.index(k)] + 1e-4) for k in slots]
             for i in range(len(cand))]
        )
        rows, cols = linear_sum_assignment(np.nan_to_num(cost, nan=INF, posinf=INF))
        used: dict[BallKind, int] = {}
        for r_, c_ in zip(rows, cols, strict=True):
            if cost[r_, c_] > -np.log(0.05):
                continue
            j = int(cand[r_])
            kind = slots[c_]
            used[kind] = used.get(kind, 0) + 1
            z = dets.xy_mm[j]
            t = self._revive(kind, z) if counts[kind] >= MAX_COUNT[kind] else None
            if t is None:
                t = self._revive_potted(kind, z) if kind != BallKind.RED else None
            if t is None:
                if counts[kind] >= MAX_COUNT[kind]:
                    continue
                t = self._new_track(kind, z)
                counts[kind] += 1
            self._seen(t, dets, j)

    def _revive(self, kind: BallKind, z: np.ndarray) -> Track | None:
        """The nearest hidden track of ``kind`` moved to ``z`` (it moved unseen)."""
        hidden = [t for t in self.active() if t.kind == kind
                  and t.status == TrackStatus.HIDDEN]
        if not hidden:
            return None
        t = min(hidden, key=lambda t: float(np.linalg.norm(t.state[:2] - z)))
        t.state = np.array([z[0], z[1], 0.0, 0.0])
        t.cov = np.diag([self.config.meas_sigma_mm**2] * 2 + [50.0**2] * 2)
        return t

    def _revive_potted(self, kind: BallKind, z: np.ndarray) -> Track | None:
        """A potted colour (or white) back on the table: its old track."""
        for t in self.tracks:
            if t.kind == kind and t.status == TrackStatus.POTTED:
                t.state = np.array([z[0], z[1], 0.0, 0.0])
                t.cov = np.diag([self.config.meas_sigma_mm**2] * 2 + [50.0**2] * 2)
                return t
        return None


def _inside(p: np.ndarray, boxes: Sequence[tuple[int, int, int, int]]) -> bool:
    return any(x0 <= p[0] < x1 and y0 <= p[1] < y1 for x0, y0, x1, y1 in boxes)
