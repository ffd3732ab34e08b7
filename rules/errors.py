"""Precise exceptions of the rules engine; each names the record field at fault."""

from __future__ import annotations


class RulesError(ValueError):
    """A record that the engine cannot accept.

    Attributes:
        field: The record field at fault (``"potted"``, ``"choice"``, ...).
        line: The match-log line number, once known (1-based), else ``None``.
    """

    def __init__(self, message: str, field: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.line = line

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}field {self.field!r}: {self.message}"


class LogError(RulesError):
    """A malformed match-log line: not JSON, an unknown type, a bad value."""


class IllegalShotError(RulesError):
    """A shot that cannot have happened from the current state.

    For example a ball potted that is not on the table, a shot after the frame ended.
    """


class IllegalDecisionError(RulesError):
    """A decision that is not open: no foul before it, or ``restore`` with no miss."""
