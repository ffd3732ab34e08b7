"""Per-frame detections: a frozen struct of arrays."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.kinds import KINDS, MAX_COUNT, NONE_CLASS

IN_FRONT_MM = 25.0
"""Of two balls whose images overlap, one at least this much nearer the camera
is in front. (Touching balls are 52.5 mm apart: seen along the table from
beyond a cushion, the farther is up to that much farther from the camera; under
an overhead camera, by that times the sine of the sight line's tilt, 0 below
the camera.)"""

FRONT_SURE = 0.8
"""How sure of its kind a ball's reading must be for the ball to be in front
(``Detections.behind_unread``): a blurred white struck the pink, in front of
it, read 0.58 pink (seed 3200); whites standing in front of the brown, in
rendered broadcast views, read 0.86-0.99 white."""


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class Detections:
    """The balls found in one frame (N of them), struct of arrays.

    Attributes:
        xy_px: (N, 2) float64 ball-centre images, px, image frame (u right, v down;
            pixel (0, 0) is the centre of the top-left pixel), distorted frame as
            captured.
        xy_mm: (N, 2) float64 ball centres in the table frame, mm (mapped through the
            plane of ball centres, z = ball radius); NaN when no calibration.
        radius_px: (N,) float64 fitted image radius, px.
        probs: (N, 9) float32 class probabilities, columns ``KINDS`` then "none";
            rows sum to 1.
        kind: (N,) int8 most likely kind index into ``KINDS`` (0-7).
        confidence: (N,) float32 probability of ``kind`` (0-1).
        frame: Frame index the detections belong to (-1 if unknown).
        held_only: (N,) bool, True for a disc in a pocket's jaws not sure enough
            of its colour to stand alone (the dark opening makes such discs
            beside a passing ball): only a sighting of a ball already held at
            rest there (``vision.track``); ``sure()`` leaves them out. All
            False when not given.
        bare_mm: (M, 2) float64 mm, table frame: of the places of balls held
            hidden at rest in a pocket's jaws
            (``vision.track.BallTracker.hidden_in_jaws``), those this frame
            shows bare (at most ``BARE_COVER`` of a ball's disc there reads as
            foreground: no ball, and nothing in front of it;
            ``BallDetector.cover``); None when they were not looked at.
        covered_mm: (K, 2) float64 mm, table frame: of those places, those
            this frame shows covered (more than ``BARE_COVER`` of a ball's disc
            there: a ball, or something in front of it); None when they were
            not looked at. A place the camera cannot see is in neither.
        range_mm: (N,) float64 mm: distance from the camera's centre to each
            ball centre (``vision.geometry.TableView.range_mm``); None when the
            calibration has no camera pose.
    """

    xy_px: np.ndarray
    xy_mm: np.ndarray
    radius_px: np.ndarray
    probs: np.ndarray
    kind: np.ndarray = field(init=False)
    confidence: np.ndarray = field(init=False)
    frame: int = -1
    held_only: np.ndarray | None = None
    bare_mm: np.ndarray | None = None
    covered_mm: np.ndarray | None = None
    range_mm: np.ndarray | None = None

    def __post_init__(self) -> None:
        xy_px = np.array(self.xy_px, dtype=np.float64).reshape(-1, 2)
        n = len(xy_px)
        xy_mm = np.array(self.xy_mm, dtype=np.float64).reshape(-1, 2)
        radius = np.array(self.radius_px, dtype=np.float64).reshape(-1)
        probs = np.array(self.probs, dtype=np.float32).reshape(-1, NONE_CLASS + 1)
        if not (len(xy_mm) == len(radius) == len(probs) == n):
            raise ValueError(
                f"detections: lengths differ: xy_px {n}, xy_mm {len(xy_mm)}, "
                f"radius_px {len(radius)}, probs {len(probs)}"
            )
        if not np.all(np.isfinite(xy_px)):
            raise ValueError("detections: xy_px not finite")
        if np.any(radius <= 0):
            raise ValueError("detections: radius_px must be positive")
        if n and (np.any(probs < -1e-6) or np.any(np.abs(probs.sum(1) - 1) > 1e-3)):
            raise ValueError("detections: probs rows must be distributions")
        held = (np.zeros(n, bool) if self.held_only is None
                else np.array(self.held_only, dtype=bool).reshape(-1))
        if len(held) != n:
            raise ValueError(f"detections: held_only has {len(held)} rows, not {n}")
        for name in ("bare_mm", "covered_mm"):
            if getattr(self, name) is not None:
                places = np.array(getattr(self, name), dtype=np.float64).reshape(-1, 2)
                if not np.all(np.isfinite(places)):
                    raise ValueError(f"detections: {name} not finite")
                object.__setattr__(self, name, _frozen(places))
        if self.range_mm is not None:
            ranges = np.array(self.range_mm, dtype=np.float64).reshape(-1)
            if len(ranges) != n:
                raise ValueError(
                    f"detections: range_mm has {len(ranges)} rows, not {n}")
            object.__setattr__(self, "range_mm", _frozen(ranges))
        kind = np.argmax(probs[:, : len(KINDS)], axis=1).astype(np.int8)
        conf = probs[np.arange(n), kind].astype(np.float32)
        for name, value in (
            ("xy_px", xy_px),
            ("xy_mm", xy_mm),
            ("radius_px", radius),
            ("probs", probs),
            ("kind", kind),
            ("confidence", conf),
            ("held_only", held),
        ):
            object.__setattr__(self, name, _frozen(value))

    def __len__(self) -> int:
        return len(self.xy_px)

    @property
    def ball_prob(self) -> np.ndarray:
        """(N,) float32 probability of being a ball at all (1 - P(none))."""
        return 1.0 - self.probs[:, NONE_CLASS]

    def kind_names(self) -> list[str]:
        """Most likely kind of each detection, as contract names."""
        return [str(KINDS[k]) for k in self.kind]

    def subset(self, keep: np.ndarray) -> Detections:
        """The detections selected by a bool mask or index array."""
        assert self.held_only is not None
        return Detections(
            self.xy_px[keep], self.xy_mm[keep], self.radius_px[keep],
            self.probs[keep], frame=self.frame, held_only=self.held_only[keep],
            range_mm=None if self.range_mm is None else self.range_mm[keep],
        )

    def sure(self) -> Detections:
        """The detections that stand alone (``held_only`` left out)."""
        assert self.held_only is not None
        return self.subset(~self.held_only)

    def behind_unread(self) -> Detections:
        """These detections, with the kind of each one read as that of a ball
        in front of it struck out.

        In a far camera's view a ball partly hidden behind another, nearer
        one reads as the one in front (seed 1026's red, behind the white and
        touching it, read 0.85 white and 0.003 red; refused as the red, it was
        held unseen while it crept 8 mm). A detection whose image disc
        overlaps that of a detection of the same one-of-a-kind kind (the white
        or a colour) in front of it is not that kind: its probability goes,
        and its ball probability is spread evenly over the other kinds (which
        of them it is, its reading cannot tell). In front is at least
        ``IN_FRONT_MM`` nearer the camera (``range_mm``) and read at least
        ``FRONT_SURE`` of its kind; where neither is, or the ranges are not
        known, the surer one. (Seed 3110's brown, at rest 70 mm beyond the
        white in a broadcast view, read 0.991 white and the white 0.987: the
        white's reading was struck out, and its track took the brown's
        sightings. Seed 3200's white, blurred, read 0.58 pink as it struck the
        pink from in front: the pink's reading, 0.90, is the one that stands.)
        A full search's
        ``vision.identify.constrain_kinds`` has sorted such pairs already.
        """
        n = len(self)
        if n < 2:
            return self
        apart = np.linalg.norm(self.xy_px[:, None] - self.xy_px[None], axis=2)
        overlap = apart < self.radius_px[:, None] + self.radius_px[None]
        np.fill_diagonal(overlap, False)
        same = self.kind[:, None] == self.kind[None]
        in_front = self.confidence[None] > self.confidence[:, None]
        if self.range_mm is not None:
            # (j is in front of i: nearer the camera, and sure of its kind)
            sure = self.confidence >= FRONT_SURE
            nearer = (self.range_mm[:, None] - self.range_mm[None]) >= IN_FRONT_MM
            in_front = (nearer & sure[None]) | (in_front & ~(nearer.T & sure[:, None]))
        one_of_a_kind = np.array([MAX_COUNT[k] == 1 for k in KINDS])
        behind = (overlap & same & in_front).any(axis=1) & one_of_a_kind[self.kind]
        if not behind.any():
            return self
        probs = self.probs.copy()
        rows = np.flatnonzero(behind)
        ball = 1.0 - probs[rows, NONE_CLASS]
        probs[rows, :NONE_CLASS] = (ball / (NONE_CLASS - 1))[:, None]
        probs[rows, self.kind[rows]] = 0.0
        return Detections(self.xy_px, self.xy_mm, self.radius_px, probs,
                          frame=self.frame, held_only=self.held_only,
                          range_mm=self.range_mm)

    @staticmethod
    def empty(frame: int = -1) -> Detections:
        """No detections."""
        return Detections(
            np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0),
            np.zeros((0, NONE_CLASS + 1), np.float32), frame=frame,
        )
