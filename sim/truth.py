"""Truth files of a synthetic clip: writing and reading (numpy only, no physics).

A clip folder holds ``truth.json`` (metadata, calibration, strokes and events),
``frames.npz`` (per-frame arrays), ``match_log.jsonl``, ``calibration.json``,
``expected_score.json``, ``calls.jsonl`` (the referee's calls: the nominations
that footage cannot show, for ``baulk analyze --calls``) and ``video.mp4`` (see
``sim.clip``).

``frames.npz`` arrays (F frames, N balls in the order of ``keys``):

- ``keys``: (N,) str ball keys (``white``, colours, ``red_01``...).
- ``positions_mm``: (F, N, 3) float32 ball centres, table frame mm (z = radius on
  the cloth, more in flight); NaN when the ball is not on the table.
- ``positions_px``: (F, N, 2) float32 image position of the centre (through the
  truth camera, distortion included); NaN when not on the table, or during a cut.
- ``visible``: (F, N) float32 fraction (0-1) of the ball's disc visible in the
  image: hidden by cushions, occluders (player, cue, hands, score bar) or the image
  edge. 0 when not on the table, and during a cut to another camera (``truth.json``
  ``cuts``: ``[first, last]`` frame ranges showing a close-up).

Event frames in ``truth.json``: frame ``i`` shows the instant ``(i - start_frame) /
fps`` seconds after the strike (shutter centred on it); an event at time ``t`` has
``frame = start_frame + ceil(t * fps)``, the first frame at or after it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

TRUTH_VERSION = 1
"""Version of the truth format."""


def write_frames(
    path: Path,
    keys: tuple[str, ...],
    positions_mm: np.ndarray,
    positions_px: np.ndarray,
    visible: np.ndarray,
) -> None:
    """Write ``frames.npz`` (compressed)."""
    np.savez_compressed(
        path,
        keys=np.array(keys),
        positions_mm=positions_mm.astype(np.float32),
        positions_px=positions_px.astype(np.float32),
        visible=visible.astype(np.float32),
    )


@dataclass(frozen=True, eq=False)
class ClipTruth:
    """A clip's truth, loaded.

    Attributes:
        folder: The clip folder.
        meta: ``truth.json`` as a dict.
        keys: (N,) ball keys.
        positions_mm: (F, N, 3) float32, table mm, NaN off the table.
        positions_px: (F, N, 2) float32, pixels, NaN off the table.
        visible: (F, N) float32 visible fraction.
        match_log: The match log records.
    """

    folder: Path
    meta: dict[str, Any]
    keys: tuple[str, ...]
    positions_mm: np.ndarray
    positions_px: np.ndarray
    visible: np.ndarray
    match_log: list[dict[str, Any]]

    @property
    def on_table(self) -> np.ndarray:
        """(F, N) bool: the ball is on the table (or in flight in view)."""
        return ~np.isnan(self.positions_mm[..., 0])

    @property
    def fps(self) -> int:
        """Frames per second."""
        return int(self.meta["fps"])

    @property
    def strokes(self) -> list[dict[str, Any]]:
        """Stroke records (start/end frame, events with frames, log record)."""
        return list(self.meta["strokes"])


def referee_calls(strokes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The referee's calls of a clip's strokes (``truth.json`` ``strokes``), in
    the format of ``baulk.calls``: each nomination, heard as the previous stroke
    ended (the first frame after it; frame 0 before the first)."""
    calls = []
    for before, stroke in zip([None, *strokes], strokes, strict=False):
        nominated = stroke["plan"].get("nominated")
        if nominated:
            frame = 0 if before is None else before["end_frame"] + 1
            calls.append({"frame": frame, "nominated": nominated})
    return calls


def load_clip(folder: Path | str) -> ClipTruth:
    """Load a clip folder's truth (not the video)."""
    folder = Path(folder)
    meta = json.loads((folder / "truth.json").read_text())
    with np.load(folder / "frames.npz") as z:
        keys = tuple(str(k) for k in z["keys"])
        pos_mm, pos_px, vis = z["positions_mm"], z["positions_px"], z["visible"]
    log = [
        json.loads(line)
        for line in (folder / "match_log.jsonl").read_text().splitlines()
        if line.strip()
    ]
    return ClipTruth(folder, meta, keys, pos_mm, pos_px, vis, log)
