"""``baulk score``: the contract's JSON, and one-line errors on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from baulk.cli import main

LOGS = Path(__file__).parents[2] / "examples" / "logs"
CONTRACT_FIELDS = {
    "variant",
    "players",
    "scores",
    "to_play",
    "ball_on",
    "free_ball",
    "frame_over",
    "winner",
    "current_break",
    "highest_break",
    "respotted_black",
    "on_table",
    "shots",
    "frames_won",
}


def _write(tmp_path: Path, *records: dict | str) -> Path:
    path = tmp_path / "match.jsonl"
    path.write_text(
        "\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n"
    )
    return path


def test_json_has_every_contract_field(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(LOGS / "maximum_147.jsonl"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert CONTRACT_FIELDS <= data.keys()
    assert data["on_table"] == {
        "red": 0,
        "yellow": 0,
        "green": 0,
        "brown": 0,
        "blue": 0,
        "pink": 0,
        "black": 0,
    }
    assert {"player", "points", "penalty", "fouls", "miss"} <= data["shots"][0].keys()


BAD_LINES = [
    # (records, line, field)
    (
        [
            '{"type": "shot", "first_contact": ["red"]',
        ],
        1,
        "json",
    ),
    ([{"type": "shot", "first_contact": ["purple"]}], 1, "first_contact"),
    (
        [
            {"type": "shot", "first_contact": ["red"]},
            {"type": "decision", "choice": "play"},
        ],
        2,
        "choice",
    ),
    (
        [
            {"type": "frame_start", "reds": 1},
            {"type": "shot", "first_contact": ["red"], "potted": ["red", "red"]},
        ],
        2,
        "potted",
    ),
    ([{"type": "shot", "first_contact": ["red"]}, {"type": "teleport"}], 2, "type"),
    (
        [
            {
                "type": "shot",
                "first_contact": ["red"],
                "potted": [{"ball": "red", "pocket": "corner"}],
            }
        ],
        1,
        "potted",
    ),
]


@pytest.mark.parametrize(("records", "line", "field"), BAD_LINES)
def test_bad_line_names_line_and_field_and_prints_state_before(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    records: list,
    line: int,
    field: str,
) -> None:
    path = _write(tmp_path, *records)
    assert main(["score", str(path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1
    assert f"line {line}: field '{field}'" in err
    state = json.loads(out)
    assert len(state["shots"]) == line - 1 - sum(
        1 for r in records[: line - 1] if isinstance(r, dict) and r["type"] != "shot"
    )


def test_missing_file_is_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", str(tmp_path / "nope.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


def test_module_entry_point_exits_two_without_traceback(tmp_path: Path) -> None:
    path = _write(tmp_path, {"type": "decision", "choice": "restore"})
    run = subprocess.run(
        [sys.executable, "-m", "baulk", "score", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "line 1: field 'choice'" in run.stderr
