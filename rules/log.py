"""Reading and replaying a match log (JSON Lines, see the contracts)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.errors import LogError, RulesError
from rules.match import MatchState
from rules.records import Record, parse_record


def read_records(lines: Iterable[str]) -> Iterator[Record]:
    """Parse JSON Lines into records, skipping blank lines.

    Raises:
        LogError: a line that is not JSON or not a valid record, with its number.
    """
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as error:
            raise LogError(f"not valid JSON ({error.msg})", "json", number) from None
        yield parse_record(obj, number)


@dataclass(frozen=True)
class Replay:
    """A replayed log: the last good state, and the error that stopped it, if any."""

    state: MatchState
    error: RulesError | None = None


def replay(lines: Iterable[str], variant: str | None = None) -> Replay:
    """Push every record of a log; stop at the first bad one.

    Args:
        lines: The log's lines.
        variant: Overrides the log's variant when given.
    """
    state = MatchState.new(variant)
    number = 0
    try:
        for record in read_records(lines):
            number = record.line or number
            state = state.push(record)
    except RulesError as error:
        if error.line is None:
            error.line = number
        return Replay(state, error)
    return Replay(state)
