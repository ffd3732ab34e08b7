"""The referee's calls: what a camera cannot see, given to ``baulk analyze``.

A calls file is JSON Lines, one call per line, each with the ``frame`` (video
frame index) at which it was made and any of the ``shot`` record's fields that
only the referee knows (see the contracts)::

    {"frame": 412, "nominated": "brown"}
    {"frame": 980, "referee_fouls": ["push_stroke"], "miss": true}

A nomination is made before the stroke: it belongs to the next stroke to start
at or after its frame. A foul or a miss is called on a stroke: its frame lies
between the stroke's strike and the end of its motion. The fields are written into
that stroke's ``shot`` record; a later call of the same stroke overrides an
earlier one. A call that fits no stroke is left unused (``CallBook.unused``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baulk.errors import UserError
from rules import Ball, RefereeFoul

FIELDS = ("nominated", "referee_fouls", "miss")
"""The ``shot`` fields a call may carry."""


@dataclass(frozen=True)
class Call:
    """One call of the referee.

    Attributes:
        frame: Video frame at which it was made.
        fields: The ``shot`` record fields it sets.
    """

    frame: int
    fields: dict[str, Any]


def _check(obj: Any) -> Call:
    """A call from one parsed line; ValueError says what is wrong with it."""
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    frame = obj.get("frame")
    if isinstance(frame, bool) or not isinstance(frame, int) or frame < 0:
        raise ValueError(f"'frame' must be a frame index (>= 0), not {frame!r}")
    unknown = sorted(set(obj) - {"frame", *FIELDS})
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r} (a call may set "
                         f"{', '.join(FIELDS)})")
    fields = {k: obj[k] for k in FIELDS if k in obj}
    if not fields:
        raise ValueError(f"nothing called (give one of {', '.join(FIELDS)})")
    nominated = fields.get("nominated")
    if nominated is not None and nominated not in set(Ball) - {Ball.WHITE}:
        raise ValueError(f"'nominated' must be an object ball, not {nominated!r}")
    fouls = fields.get("referee_fouls", [])
    if not isinstance(fouls, list) or any(f not in set(RefereeFoul) for f in fouls):
        raise ValueError(f"'referee_fouls' must be a list of "
                         f"{', '.join(RefereeFoul)}, not {fouls!r}")
    if not isinstance(fields.get("miss", False), bool):
        raise ValueError(f"'miss' must be true or false, not {fields['miss']!r}")
    return Call(frame, fields)


def read_calls(path: Path | str) -> list[Call]:
    """The calls of a file, in frame order.

    Raises:
        UserError: A missing file, or a line that is not a valid call (named
            by its number).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UserError(f"{path}: cannot read the calls ({error.strerror})") from None
    calls = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            calls.append(_check(json.loads(line)))
        except ValueError as error:  # json.JSONDecodeError is a ValueError
            raise UserError(f"{path}:{number}: not a valid call: {error}") from None
    return sorted(calls, key=lambda c: c.frame)


class CallBook:
    """Hands each stroke, as it is refereed, the calls that belong to it.

    Args:
        calls: The calls, in frame order.
    """

    def __init__(self, calls: list[Call]) -> None:
        self._todo = [(c.frame, k, v) for c in calls for k, v in c.fields.items()]
        self._skipped: list[tuple[int, str, Any]] = []

    @property
    def unused(self) -> list[tuple[int, str]]:
        """``(frame, field)`` of the calls that fitted no stroke so far, and of
        those after the last stroke so far."""
        return sorted((f, k) for f, k, _ in self._skipped + self._todo)

    def take(self, start_frame: int, end_frame: int) -> dict[str, Any]:
        """The fields called for the stroke struck at ``start_frame`` that came
        to rest at ``end_frame``; strokes are taken in order."""
        fields: dict[str, Any] = {}
        keep = []
        for frame, key, value in self._todo:
            if key == "nominated":
                # made before the strike: this stroke's; after it, the next's
                if frame <= start_frame:
                    fields[key] = value
                else:
                    keep.append((frame, key, value))
            elif frame > end_frame:
                keep.append((frame, key, value))
            elif frame >= start_frame:
                fields[key] = value
            else:  # between strokes: the last one was refereed without it
                self._skipped.append((frame, key, value))
        self._todo = keep
        return fields
