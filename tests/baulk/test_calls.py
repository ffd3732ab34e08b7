"""The referee's calls (``baulk.calls``) and their place in ``baulk analyze``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from baulk.calls import Call, CallBook, read_calls
from baulk.cli import main
from baulk.errors import UserError
from baulk.pipeline import Analysis, frames_from_truth

SAMPLE = Path(__file__).resolve().parents[2] / "sample_videos" / "overhead_seed1"


@pytest.mark.parametrize(("line", "says"), [
    ("{oops", "not a valid call"),
    ("[1, 2]", "not a JSON object"),
    ('{"nominated": "blue"}', "'frame'"),
    ('{"frame": -3, "nominated": "blue"}', "'frame'"),
    ('{"frame": true, "nominated": "blue"}', "'frame'"),
    ('{"frame": 4}', "nothing called"),
    ('{"frame": 4, "nominated": "white"}', "'nominated'"),
    ('{"frame": 4, "nominated": "purple"}', "'nominated'"),
    ('{"frame": 4, "referee_fouls": ["kicked_the_table"]}', "'referee_fouls'"),
    ('{"frame": 4, "referee_fouls": "push_stroke"}', "'referee_fouls'"),
    ('{"frame": 4, "miss": "yes"}', "'miss'"),
    ('{"frame": 4, "decision": "play"}', "unknown field 'decision'"),
])
def test_a_bad_call_names_its_file_and_line(tmp_path: Path, line: str,
                                            says: str) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text('{"frame": 1, "nominated": "pink"}\n\n' + line + "\n")
    with pytest.raises(UserError, match=f"calls.jsonl:3: .*{says}"):
        read_calls(path)


def test_calls_are_read_in_frame_order(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text('{"frame": 900, "miss": true}\n'
                    '{"frame": 10, "nominated": "pink"}\n'
                    '{"frame": 40, "nominated": "black", '
                    '"referee_fouls": ["push_stroke"]}\n')
    assert [(c.frame, c.fields) for c in read_calls(path)] == [
        (10, {"nominated": "pink"}),
        (40, {"nominated": "black", "referee_fouls": ["push_stroke"]}),
        (900, {"miss": True})]
    with pytest.raises(UserError, match="cannot read the calls"):
        read_calls(tmp_path / "missing.jsonl")


@pytest.mark.parametrize(("calls", "strokes", "taken", "unused"), [
    # a nomination belongs to the next stroke struck after it, even when the
    # stroke before is seen to end a little after it was made
    ([(101, {"nominated": "blue"})], [(0, 104), (130, 300)],
     [{}, {"nominated": "blue"}], []),
    # the later of two nominations counts
    ([(101, {"nominated": "blue"}), (120, {"nominated": "pink"})],
     [(130, 300)], [{"nominated": "pink"}], []),
    # a foul is called on the stroke whose motion it falls in
    ([(150, {"referee_fouls": ["push_stroke"]}), (310, {"miss": True})],
     [(130, 300), (320, 400)], [{"referee_fouls": ["push_stroke"]}, {}],
     [(310, "miss")]),
    # one call, two fields: the nomination for the next stroke, the foul on the
    # one in motion
    ([(200, {"nominated": "black", "miss": True})], [(130, 300), (320, 400)],
     [{"miss": True}, {"nominated": "black"}], []),
    # after the last stroke: not used
    ([(500, {"nominated": "green"})], [(130, 300)], [{}], [(500, "nominated")]),
])
def test_each_stroke_is_handed_the_calls_that_belong_to_it(
        calls: list[tuple[int, dict[str, Any]]], strokes: list[tuple[int, int]],
        taken: list[dict[str, Any]], unused: list[tuple[int, str]]) -> None:
    book = CallBook([Call(f, fields) for f, fields in calls])
    assert [book.take(a, b) for a, b in strokes] == taken
    assert book.unused == unused


def _refereed(calls: list[Call]) -> Analysis:
    truth = json.loads((SAMPLE / "truth.json").read_text())
    analysis = Analysis(fps=truth["fps"], calls=calls)
    for bf in frames_from_truth(SAMPLE):
        analysis.feed(bf)
    analysis.finish()
    return analysis


def _third_shot(analysis: Analysis) -> dict[str, Any]:
    return [r for r in analysis.log if r["type"] == "shot"][2]


def test_a_nomination_heard_by_the_referee_decides_the_stroke() -> None:
    # the sample's third stroke, after a red was potted, strikes the yellow
    # first: a fair stroke unless another colour was nominated (seed Part 3
    # rule 12b(iv): the penalty is the nominated black's value)
    plain = _refereed([])
    assert "nominated" not in _third_shot(plain)
    called = _refereed([Call(590, {"nominated": "black"})])
    assert _third_shot(called)["nominated"] == "black"
    before = plain.state.to_json()["scores"]
    # the striker of the third stroke (who potted the red) gives away 7
    assert called.state.to_json()["scores"] == [before[0] + 7, before[1]]


def test_a_call_the_rules_refuse_is_dropped_not_the_stroke() -> None:
    # a red nominated when a colour is on (seed Part 3 rule 3f(i))
    analysis = _refereed([Call(590, {"nominated": "red"})])
    shot = _third_shot(analysis)
    assert "nominated" not in shot and shot["first_contact"] == ["yellow"]
    assert all(s.error is None for s in analysis.strokes)


def test_analyze_refuses_a_bad_calls_file_before_writing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    calls = tmp_path / "calls.jsonl"
    calls.write_text('{"frame": 12, "nominated": "mauve"}\n')
    code = main(["analyze", str(SAMPLE / "video.mp4"), "--calls", str(calls),
                 "-o", str(tmp_path / "out")])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert "calls.jsonl:1" in err and "mauve" in err and "\n" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calls.jsonl"]
