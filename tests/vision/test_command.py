"""``baulk track``: bad input gives one line, a non-zero exit and no output."""

from __future__ import annotations

from pathlib import Path

import pytest

from baulk.cli import main


def test_missing_video(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tracks.csv"
    code = main(["track", str(tmp_path / "nope.mp4"), "-o", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0 and len(err) == 1 and "no such file" in err[0]
    assert not out.exists()


def test_corrupt_video(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"\x00not a video at all" * 50)
    out = tmp_path / "tracks.csv"
    code = main(["track", str(bad), "-o", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0 and len(err) == 1 and "track: error" in err[0]
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]
