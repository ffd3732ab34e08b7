"""Things that get in the way on real footage: the player and cue, the referee's
gloved hand, a TV score bar. Each draws itself into a frame and returns the mask of
pixels it covers (``sim.render.Occluder``)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from sim.camera import Camera


def _fill(image: np.ndarray, mask: np.ndarray, pts: np.ndarray, color: tuple) -> None:
    poly = np.round(pts * 8).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(image, [poly], color, lineType=cv2.LINE_AA, shift=3)
    cv2.fillPoly(mask, [poly], 1, shift=3)


def _ellipse_world(
    centre: np.ndarray, a: np.ndarray, b: np.ndarray, n: int = 24
) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return (
        centre[None, :]
        + np.cos(t)[:, None] * a[None, :]
        + np.sin(t)[:, None] * b[None, :]
    )


def _visible(camera: Camera, pts: np.ndarray) -> bool:
    return bool(np.all(camera.depth(pts) > 50.0))


@dataclass(frozen=True)
class Player:
    """A player down on a shot: cue, bridge hand, arm and body, in world mm.

    Attributes:
        cue_ball: (x, y) of the cue ball, table mm.
        angle_deg: Direction of the shot, degrees from +x.
        tip_gap_mm: Gap between the cue tip and the cue ball (grows as he
            withdraws).
        shirt_bgr: Shirt colour.
        skin_bgr: Skin colour.
    """

    cue_ball: tuple[float, float]
    angle_deg: float
    tip_gap_mm: float = 20.0
    shirt_bgr: tuple[int, int, int] = (25, 22, 22)
    skin_bgr: tuple[int, int, int] = (120, 150, 200)

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw onto ``image`` in place; return the (H, W) bool mask covered."""
        mask = np.zeros(image.shape[:2], np.uint8)
        a = math.radians(self.angle_deg)
        u = np.array([math.cos(a), math.sin(a), 0.0])
        n = np.array([-u[1], u[0], 0.0])
        up = np.array([0.0, 0.0, 1.0])
        ball = np.array([*self.cue_ball, 26.25])
        tip = ball - u * (26.25 + self.tip_gap_mm) + up * 5
        butt = tip - u * 1450 + up * 160
        bridge = tip - u * 240
        bridge[2] = 10.0
        # A player bent over the cue: head just above it, torso behind, two arms.
        head = tip - u * 720 + up * 300
        torso = tip - u * 1080 - n * 40 + up * 330
        shoulder_b = tip - u * 860 + n * 210 + up * 330
        shoulder_c = tip - u * 860 - n * 210 + up * 330
        grip = butt + u * 180
        elbow = shoulder_c - u * 330 + up * 60
        parts = [
            (_ellipse_world(torso, u * 360, n * 250), self.shirt_bgr),
            (_ellipse_world(head, u * 120, n * 95), (30, 38, 50)),
        ]
        for pts, color in parts:
            if _visible(camera, pts):
                _fill(image, mask, camera.project(pts), color)
        for p0, p1, width_mm in (
            (shoulder_b, bridge + up * 50, 90.0),
            (shoulder_c, elbow, 95.0),
            (elbow, grip, 80.0),
        ):
            seg = np.array([p0, p1])
            if not _visible(camera, seg):
                continue
            q = np.round(camera.project(seg)).astype(int)
            width = max(
                2, int(camera.ball_radius_px(seg.mean(0, keepdims=True), width_mm)[0])
            )
            ends = (int(q[0, 0]), int(q[0, 1])), (int(q[1, 0]), int(q[1, 1]))
            cv2.line(image, *ends, self.shirt_bgr, width, cv2.LINE_AA)
            cv2.line(mask, *ends, 1, width)
        hand = _ellipse_world(bridge + up * 15, u * 55, n * 45)
        if _visible(camera, hand):
            _fill(image, mask, camera.project(hand), self.skin_bgr)
        # The cue: a tapered shaft, light ash then a dark butt.
        if _visible(camera, np.array([tip, butt])):
            for s0, s1, w0, w1, color in (
                (0.0, 0.7, 5.0, 11.0, (150, 190, 215)),
                (0.7, 1.0, 11.0, 15.0, (30, 40, 70)),
            ):
                p0, p1 = tip + (butt - tip) * s0, tip + (butt - tip) * s1
                quad = np.array([p0 + n * w0, p1 + n * w1, p1 - n * w1, p0 - n * w0])
                _fill(image, mask, camera.project(quad), color)
        return mask.view(bool)


@dataclass(frozen=True)
class Hand:
    """The referee's white-gloved hand over a ball being placed or re-spotted.

    Attributes:
        at: (x, y) table mm under the hand.
        height_mm: Height of the hand above the cloth.
    """

    at: tuple[float, float]
    height_mm: float = 70.0

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw onto ``image`` in place; return the (H, W) bool mask covered."""
        mask = np.zeros(image.shape[:2], np.uint8)
        c = np.array([self.at[0] - 30.0, self.at[1], self.height_mm])
        ex, ey, ez = np.eye(3)
        glove = _ellipse_world(c, ex * 60 + ez * 10, ey * 45)
        sleeve = _ellipse_world(c - ex * 180 + ez * 60, ex * 130 + ez * 40, ey * 55)
        for pts, color in ((sleeve, (35, 30, 30)), (glove, (235, 238, 240))):
            if _visible(camera, pts):
                _fill(image, mask, camera.project(pts), color)
        return mask.view(bool)


@dataclass(frozen=True)
class ScoreBar:
    """A TV score bar across the bottom of the picture.

    Attributes:
        text_left: Left player's name and score.
        text_right: Right player's name and score.
        height_frac: Bar height as a fraction of the image height.
        bgr: Bar colour.
    """

    text_left: str = "Player 1   0"
    text_right: str = "0   Player 2"
    height_frac: float = 0.055
    bgr: tuple[int, int, int] = (110, 50, 20)

    def draw(self, image: np.ndarray, camera: Camera) -> np.ndarray:
        """Draw onto ``image`` in place; return the (H, W) bool mask covered."""
        h, w = image.shape[:2]
        bh = max(8, int(h * self.height_frac))
        y1 = h - int(h * 0.03)
        y0 = y1 - bh
        x0, x1 = int(w * 0.18), int(w * 0.82)
        mask = np.zeros((h, w), bool)
        image[y0:y1, x0:x1] = self.bgr
        mask[y0:y1, x0:x1] = True
        scale = bh / 40.0
        cv2.putText(
            image,
            self.text_left,
            (x0 + int(10 * scale), y1 - int(bh * 0.28)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (255, 255, 255),
            max(1, int(2 * scale)),
            cv2.LINE_AA,
        )
        size, _ = cv2.getTextSize(self.text_right, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        cv2.putText(
            image,
            self.text_right,
            (x1 - size[0] - int(10 * scale), y1 - int(bh * 0.28)),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (255, 255, 255),
            max(1, int(2 * scale)),
            cv2.LINE_AA,
        )
        return mask
