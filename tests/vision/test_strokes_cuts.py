"""Camera cuts as a stroke ends: closed when every ball was still, else interrupted."""

from __future__ import annotations

import numpy as np
import pytest

from vision.strokes import (
    BallFrame,
    HandlingKind,
    SegmenterConfig,
    StrokeSegmenter,
    StrokeTracks,
)

WHITE_START = (-1100.0, -100.0)
BLUE_SPOT = (0.0, 0.0)


def _frame(f: int, white_x: float, blue: bool = True) -> BallFrame:
    balls = [(1, "white", (white_x, WHITE_START[1]))]
    if blue:
        balls.append((2, "blue", BLUE_SPOT))
    return BallFrame(f, np.array([b[0] for b in balls]), tuple(b[1] for b in balls),
                     np.array([b[2] for b in balls], float), np.ones(len(balls), bool),
                     np.ones(len(balls)))


def _stroke_then_cut(still_frames: int, speed_at_cut: float) -> list[BallFrame]:
    """Rest, a strike at frame 30, the white slowing to ``speed_at_cut`` mm per
    frame then kept at that speed for ``still_frames`` frames, a 40-frame cut
    (the blue put back on its spot meanwhile), then 30 frames of rest."""
    frames = [_frame(f, WHITE_START[0]) for f in range(30)]
    x, f = WHITE_START[0], 30
    for v in [0.0, *np.linspace(40.0, speed_at_cut, 30)]:  # struck at frame 30
        x += v
        frames.append(_frame(f, x, blue=False))
        f += 1
    for _ in range(still_frames):
        x += speed_at_cut
        frames.append(_frame(f, x, blue=False))
        f += 1
    frames += [BallFrame.no_view(f + i) for i in range(40)]
    f += 40
    frames += [_frame(f + i, x) for i in range(30)]
    return frames


def _run(frames: list[BallFrame]) -> tuple[list[StrokeTracks], list[HandlingKind]]:
    seg = StrokeSegmenter(SegmenterConfig(fps=30))
    out = []
    for bf in frames:
        out += seg.push(bf)
    out += seg.flush()
    return ([o for o in out if isinstance(o, StrokeTracks)],
            [o.kind for o in out if not isinstance(o, StrokeTracks)])


@pytest.mark.parametrize(("still_frames", "speed", "interrupted"), [
    (8, 0.0, False),   # at rest for a quarter second, then the cut
    (6, 0.2, False),   # creeping by less than the rest threshold
    (1, 2.0, True),    # slowing, 2 mm a frame at the cut: cannot tell
    (8, 6.0, True),    # still rolling when the cut came
])
def test_cut_as_the_balls_stop(still_frames: int, speed: float,
                               interrupted: bool) -> None:
    strokes, handling = _run(_stroke_then_cut(still_frames, speed))
    assert len(strokes) == 1 and strokes[0].start_frame == 30
    assert strokes[0].interrupted is interrupted
    assert HandlingKind.CAMERA_CUT in handling
    if not interrupted:
        # the blue, potted in the stroke, came back on its spot during the cut
        assert handling[handling.index(HandlingKind.CAMERA_CUT):][-1] == (
            HandlingKind.RESPOT)
