"""The referee's overlay: balls labelled, moving balls' paths, score and fouls.

``Overlay.draw`` paints one frame in place from that frame's track rows and the
match state known so far; ``Overlay.stroke_done`` queues the banner of a refereed
stroke (points, or the foul with its reason and penalty, and any event the footage
could not decide).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import cv2
import numpy as np

BALL_BGR: dict[str, tuple[int, int, int]] = {
    "white": (240, 240, 240), "red": (40, 40, 220), "yellow": (40, 220, 240),
    "green": (60, 150, 40), "brown": (30, 70, 130), "blue": (220, 100, 30),
    "pink": (180, 140, 255), "black": (30, 30, 30),
}
"""Label colours (BGR) by ball name."""

LABEL: dict[str, str] = {"white": "W", "red": "R", "yellow": "Y", "green": "G",
                         "brown": "Br", "blue": "Bl", "pink": "P", "black": "Bk"}
"""Short labels by ball name."""

FONT = cv2.FONT_HERSHEY_SIMPLEX


class Overlay:
    """Draws the overlay on frames, one after another.

    Args:
        fps: Frames per second (banner and trail durations).
        trail_s: How long a moving ball's path stays drawn.
    """

    def __init__(self, fps: float = 30.0, trail_s: float = 3.0) -> None:
        self.fps = fps
        self._trails: dict[int, deque[tuple[int, int]]] = {}
        self._trail_len = max(2, int(trail_s * fps))
        self._banners: deque[tuple[int, list[tuple[str, tuple[int, int, int]]]]] = (
            deque(maxlen=4))
        self._banner_frames = int(4 * fps)

    def stroke_done(self, frame: int, result: Any, players: list[str]) -> None:
        """Queue the banner of a refereed stroke (a ``StrokeResult``)."""
        lines: list[tuple[str, tuple[int, int, int]]] = []
        shot = result.shot or {}
        ev = result.events
        pots = ", ".join(f"{b}" + (f" ({p})" if p else "") for b, p in ev.potted)
        desc = f"stroke {ev.stroke + 1}: first contact " + (
            "+".join(ev.first_contact) or "none")
        if pots:
            desc += f"; potted {pots}"
        if ev.off_table:
            desc += f"; off table {', '.join(ev.off_table)}"
        lines.append((desc, (255, 255, 255)))
        if shot.get("fouls"):
            n = len(players)
            who = players[(shot["player"] + 1) % n] if n else "opponent"
            reasons = ", ".join(f.replace("_", " ") for f in shot["fouls"])
            lines.append((f"FOUL: {reasons} - {shot['penalty']} to {who}"
                          + (" (miss)" if shot.get("miss") else ""), (60, 60, 255)))
        elif shot:
            lines.append((f"{shot.get('points', 0)} points", (120, 255, 120)))
        for u in ev.unknown:
            lines.append((f"UNKNOWN: {u} - referee to decide", (0, 200, 255)))
        if result.error:
            lines.append((f"not scored: {result.error}", (0, 200, 255)))
        self._banners.append((frame, lines))

    def draw(self, image: np.ndarray, frame: int, rows: list[Any],
             state: dict[str, Any], view: bool = True) -> None:
        """Paint frame ``frame`` in place.

        Args:
            image: (H, W, 3) uint8 BGR frame.
            frame: Its index.
            rows: Its ``vision.pipeline.TrackRow``s.
            state: ``MatchState.to_json()`` so far.
            view: The calibrated view is on screen.
        """
        live = set()
        for r in rows:
            p = (round(r.px), round(r.py))
            live.add(r.track_id)
            trail = self._trails.setdefault(r.track_id, deque(maxlen=self._trail_len))
            if not trail or abs(trail[-1][0] - p[0]) + abs(trail[-1][1] - p[1]) > 1:
                trail.append(p)
            elif len(trail) > 1:
                trail.popleft()  # at rest: the path fades
            colour = BALL_BGR.get(r.kind, (255, 255, 255))
            if len(trail) > 2:
                cv2.polylines(image, [np.array(trail, np.int32)], False, colour, 2,
                              cv2.LINE_AA)
            rad = max(6, int(r.radius_px) + 3)
            cv2.circle(image, p, rad, colour if r.visible else (128, 128, 128), 2,
                       cv2.LINE_AA)
            cv2.putText(image, LABEL.get(r.kind, r.kind), (p[0] + rad, p[1] - rad),
                        FONT, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
        for tid in [t for t in self._trails if t not in live]:
            del self._trails[tid]
        self._scoreboard(image, state, view)
        self._draw_banners(image, frame)

    def _scoreboard(self, image: np.ndarray, state: dict[str, Any],
                    view: bool) -> None:
        if not state:
            return
        lines = []
        for i, name in enumerate(state.get("players", [])):
            mark = ">" if i == state.get("to_play") and not state.get("frame_over") \
                else " "
            lines.append(f"{mark} {name}: {state['scores'][i]}")
        on = ", ".join(state.get("ball_on") or []) or "-"
        lines.append(f"break {state.get('current_break', 0)}   ball on: {on}")
        if state.get("free_ball"):
            lines.append("FREE BALL")
        if state.get("frame_over") and state.get("winner") is not None:
            lines.append(f"frame over: {state['players'][state['winner']]} wins")
        if not view:
            lines.append("camera cut: paused")
        h = 26 * len(lines) + 12
        cv2.rectangle(image, (10, 10), (470, 10 + h), (0, 0, 0), -1)
        for k, text in enumerate(lines):
            colour = (0, 255, 255) if text == "FREE BALL" else (255, 255, 255)
            cv2.putText(image, text, (20, 34 + 26 * k), FONT, 0.7, colour, 2,
                        cv2.LINE_AA)

    def _draw_banners(self, image: np.ndarray, frame: int) -> None:
        h = image.shape[0]
        y = h - 20
        for start, lines in reversed(self._banners):
            if frame - start > self._banner_frames:
                continue
            for text, colour in reversed(lines):
                (tw, th), _ = cv2.getTextSize(text, FONT, 0.8, 2)
                cv2.rectangle(image, (10, y - th - 8), (20 + tw, y + 6), (0, 0, 0), -1)
                cv2.putText(image, text, (15, y), FONT, 0.8, colour, 2, cv2.LINE_AA)
                y -= th + 16
            break
