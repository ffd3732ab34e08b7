"""Which kind of ball a candidate is: an ONNX patch classifier, or colour rules.

Patches: a square crop around the fitted centre, scaled so that the ball's radius is
``PATCH_BALL_R`` px in a ``PATCH`` x ``PATCH`` patch, divided by the cloth's mean
brightness (exposure), plus three constant channels holding the cloth's own colour
(so the model can judge colours relative to the table's light). Model input
``(N, 6, PATCH, PATCH)`` float32; output ``(N, 9)`` logits: ``KINDS`` then "none".

Without the model file the colour-rule classifier runs instead (and says so): it
compares the ball's median colour (highlight removed), relative to the cloth, with
per-kind prototypes that it learns from the footage (the colours on their spots,
the reds in the pack).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import cv2
import numpy as np

from vision.kinds import KINDS, NONE_CLASS, BallKind

if TYPE_CHECKING:
    from vision.cloth import ClothModel

PATCH = 32
PATCH_BALL_R = 10.0
MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "ball_classifier.onnx"
"""Where the trained model lives (``models/ball_classifier.onnx``)."""

NOMINAL_CLOTH_BGR = np.array([38.0, 178.0, 42.0], np.float32)
NOMINAL_BALL_BGR: dict[BallKind, tuple[float, float, float]] = {
    BallKind.WHITE: (222.0, 232.0, 238.0),
    BallKind.RED: (28.0, 24.0, 178.0),
    BallKind.YELLOW: (22.0, 205.0, 238.0),
    BallKind.GREEN: (70.0, 105.0, 8.0),
    BallKind.BROWN: (22.0, 58.0, 112.0),
    BallKind.BLUE: (190.0, 100.0, 12.0),
    BallKind.PINK: (150.0, 140.0, 248.0),
    BallKind.BLACK: (22.0, 20.0, 20.0),
}
"""Typical ball albedos (BGR) for the colour rules' starting prototypes."""


def extract_patches(
    image: np.ndarray, xy_px: np.ndarray, radius_px: np.ndarray, cloth_bgr: np.ndarray
) -> np.ndarray:
    """Model input for balls at ``xy_px`` (N, 2) px with radii (N,) px.

    Returns:
        (N, 6, PATCH, PATCH) float32: 3 BGR channels / cloth mean brightness, then
        the cloth colour / its mean brightness as constant channels.
    """
    xy = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
    rad = np.asarray(radius_px, dtype=np.float64).reshape(-1)
    n = len(xy)
    out = np.empty((n, 6, PATCH, PATCH), np.float32)
    cloths = np.broadcast_to(np.asarray(cloth_bgr, np.float32).reshape(-1, 3), (n, 3))
    half = (PATCH - 1) / 2.0
    for i in range(n):
        cloth = cloths[i]
        scale = max(float(cloth.mean()), 1.0)
        s = PATCH_BALL_R / max(rad[i], 1.0)
        src = image
        if s < 0.7:  # shrink: pre-blur against aliasing
            x0 = int(max(0, xy[i, 0] - 2.2 * rad[i]))
            y0 = int(max(0, xy[i, 1] - 2.2 * rad[i]))
            x1 = int(min(image.shape[1], xy[i, 0] + 2.2 * rad[i] + 2))
            y1 = int(min(image.shape[0], xy[i, 1] + 2.2 * rad[i] + 2))
            src = cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), 0.5 / s)
            ox, oy = x0, y0
        else:
            ox, oy = 0, 0
        m = np.array(
            [[s, 0, half - s * (xy[i, 0] - ox)], [0, s, half - s * (xy[i, 1] - oy)]]
        )
        patch = cv2.warpAffine(
            src, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        out[i, :3] = np.transpose(patch.astype(np.float32), (2, 0, 1)) / scale
        out[i, 3:] = (cloth / scale)[:, None, None]
    return out


def ball_colour_features(
    image: np.ndarray, xy_px: np.ndarray, radius_px: np.ndarray, cloth_bgr: np.ndarray
) -> np.ndarray:
    """(N, 3) float64 log colour of each ball relative to the cloth's brightness
    (``cloth_bgr``: (3,) or (N, 3), the cloth colour near each ball).

    The median BGR of the pixels within 0.7 radius, the brightest 20% (highlights)
    left out, as ``log((c + 4) / cloth mean)``.
    """
    xy = np.asarray(xy_px, dtype=np.float64).reshape(-1, 2)
    rad = np.asarray(radius_px, dtype=np.float64).reshape(-1)
    cloths = np.broadcast_to(np.asarray(cloth_bgr, np.float64).reshape(-1, 3),
                             (len(xy), 3))
    feats = np.zeros((len(xy), 3))
    h, w = image.shape[:2]
    for i, ((cx, cy), r) in enumerate(zip(xy, rad, strict=True)):
        rr = 0.7 * r
        x0, x1 = int(max(0, cx - rr)), int(min(w, cx + rr + 2))
        y0, y1 = int(max(0, cy - rr)), int(min(h, cy + rr + 2))
        gx, gy = np.meshgrid(np.arange(x0, x1), np.arange(y0, y1))
        disc = (gx - cx) ** 2 + (gy - cy) ** 2 <= rr * rr
        pix = image[y0:y1, x0:x1][disc].astype(np.float64)
        if len(pix) == 0:
            continue
        s = pix.sum(1)
        pix = pix[s <= np.quantile(s, 0.8)] if len(pix) > 5 else pix
        scale = max(float(cloths[i].mean()), 1.0)
        feats[i] = np.log((np.median(pix, axis=0) + 4.0) / scale)
    return feats


class BallClassifier(Protocol):
    """Gives each candidate a probability for every kind and for "not a ball"."""

    description: str

    def classify(
        self,
        image: np.ndarray,
        xy_px: np.ndarray,
        radius_px: np.ndarray,
        cloth: ClothModel,
        quality: np.ndarray,
    ) -> np.ndarray:
        """(N, 9) float32 probabilities (``KINDS`` then "none"), rows sum to 1."""
        ...


def _nominal_prototypes() -> np.ndarray:
    scale = float(NOMINAL_CLOTH_BGR.mean())
    shade = 0.8
    return np.array(
        [np.log((np.array(NOMINAL_BALL_BGR[k]) * shade + 4.0) / scale) for k in KINDS]
    )


class ColourRules:
    """Nearest-prototype colour classifier; prototypes learned from the footage.

    Args:
        temperature: Softness of the distance-to-probability mapping (log units).
        none_distance: Beyond this distance from every prototype a candidate is
            "none" (a hand, a cue, a reflection).
    """

    description = "colour rules (no ONNX model)"

    def __init__(self, temperature: float = 0.12, none_distance: float = 1.2) -> None:
        self.prototypes = _nominal_prototypes()
        self.temperature = temperature
        self.none_distance = none_distance

    def learn(self, features: np.ndarray, kinds: np.ndarray, weight: float = 1.0
              ) -> None:
        """Move prototypes of ``kinds`` (N,) indices to observed ``features`` (N, 3)."""
        for k in np.unique(kinds):
            f = np.median(features[kinds == k], axis=0)
            self.prototypes[k] = (1 - weight) * self.prototypes[k] + weight * f

    def probs_from_features(self, feats: np.ndarray) -> np.ndarray:
        """(N, 9) probabilities from (N, 3) colour features."""
        d = np.linalg.norm(feats[:, None, :] - self.prototypes[None], axis=2)
        logits = -(d**2) / (2 * self.temperature**2)
        none = -(self.none_distance**2) / (2 * self.temperature**2)
        full = np.concatenate([logits, np.full((len(d), 1), none)], axis=1)
        full -= full.max(axis=1, keepdims=True)
        p = np.exp(full)
        return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)

    def classify(
        self,
        image: np.ndarray,
        xy_px: np.ndarray,
        radius_px: np.ndarray,
        cloth: ClothModel,
        quality: np.ndarray,
    ) -> np.ndarray:
        """(N, 9) float32 probabilities."""
        if len(xy_px) == 0:
            return np.zeros((0, NONE_CLASS + 1), np.float32)
        feats = ball_colour_features(image, xy_px, radius_px, cloth.local_bgr(xy_px))
        return self.probs_from_features(feats)


class OnnxClassifier:
    """The trained patch classifier (``models/ball_classifier.onnx``), with the
    colour rules' learned prototypes blended in as a prior for the colours.

    Args:
        path: The ``.onnx`` file.
        threads: onnxruntime intra-op threads.
    """

    def __init__(self, path: Path = MODEL_PATH, threads: int = 1) -> None:
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(path), opts, providers=["CPUExecutionProvider"]
        )
        self.input_name = self.session.get_inputs()[0].name
        self.description = f"ONNX model {path.name}"

    def logits(self, patches: np.ndarray) -> np.ndarray:
        """(N, 9) raw model outputs for (N, 6, PATCH, PATCH) patches."""
        if len(patches) == 0:
            return np.zeros((0, NONE_CLASS + 1), np.float32)
        return self.session.run(None, {self.input_name: patches})[0]

    def classify(
        self,
        image: np.ndarray,
        xy_px: np.ndarray,
        radius_px: np.ndarray,
        cloth: ClothModel,
        quality: np.ndarray,
    ) -> np.ndarray:
        """(N, 9) float32 probabilities."""
        if len(xy_px) == 0:
            return np.zeros((0, NONE_CLASS + 1), np.float32)
        z = self.logits(
            extract_patches(image, xy_px, radius_px, cloth.local_bgr(xy_px))
        )
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


def default_classifier(path: Path = MODEL_PATH) -> BallClassifier:
    """The ONNX classifier when its file and onnxruntime are there, else the
    colour rules (with a warning saying so)."""
    if path.is_file():
        try:
            return OnnxClassifier(path)
        except ImportError:
            warnings.warn(
                "onnxruntime is not installed: running without the ball model "
                "(colour rules)", RuntimeWarning, stacklevel=2,
            )
            return ColourRules()
    warnings.warn(
        f"{path} not found: running without the ball model (colour rules)",
        RuntimeWarning, stacklevel=2,
    )
    return ColourRules()


def constrain_kinds(probs: np.ndarray) -> np.ndarray:
    """Probabilities whose most likely kinds obey the snooker counts.

    One frame holds at most one white, one of each colour and 15 reds
    (``MAX_COUNT``). The detections (rows of ``probs``, (N, 9) float32, ``KINDS``
    then "none") are given kinds by a minimum-cost assignment to those slots, cost
    ``-log P(kind)``; a row whose assigned kind is not its most likely one has the
    two probabilities swapped, so ``argmax`` gives the assigned kind and each row
    stays a distribution. Rows left over (more candidates than slots) and rows
    most likely "none" are unchanged.

    Returns:
        (N, 9) float32 probabilities.
    """
    from scipy.optimize import linear_sum_assignment

    from vision.kinds import MAX_COUNT

    p = np.array(probs, dtype=np.float32, copy=True).reshape(-1, NONE_CLASS + 1)
    balls = np.flatnonzero(p[:, NONE_CLASS] < p[:, :NONE_CLASS].max(axis=1))
    if len(balls) == 0:
        return p
    slots = [k for k in range(NONE_CLASS) for _ in range(MAX_COUNT[KINDS[k]])]
    cost = -np.log(p[balls][:, slots].astype(np.float64) + 1e-12)
    rows, cols = linear_sum_assignment(cost)
    for r_, c_ in zip(rows, cols, strict=True):
        i = balls[r_]
        k = slots[c_]
        top = int(np.argmax(p[i, :NONE_CLASS]))
        if k != top:
            p[i, [k, top]] = p[i, [top, k]]
    return p
