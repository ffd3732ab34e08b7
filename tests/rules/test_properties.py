"""Property-based tests of the rules engine over random legal and illegal logs."""

from __future__ import annotations

import itertools
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calibration.table import OFFICIAL, Pocket
from rules import (
    COLOURS,
    Decision,
    MatchState,
    RulesError,
    Shot,
    parse_record,
    replay,
)

BALLS = ["white", "red", *COLOURS]
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _on_table(state: MatchState) -> list[str]:
    frame = state.frame
    if frame is None:
        return ["red", *COLOURS]
    return ["red"] * frame.reds + list(frame.colours)


@st.composite
def plausible_record(draw: st.DrawFn, state: MatchState) -> dict:
    """A record that names balls on the table: legal or a foul, rarely impossible."""
    frame = state.frame
    if frame is not None and frame.pending is not None and draw(st.booleans()):
        choices = ["play", "play_again"] + (
            ["restore"] if frame.pending.can_restore else []
        )
        return {"type": "decision", "choice": draw(st.sampled_from(choices))}
    if draw(st.integers(0, 60)) == 0:
        return {"type": "concede"}
    balls = _on_table(state)
    ball_on = list(frame.ball_on) if frame is not None else ["red"]
    first_kind = draw(st.sampled_from(["on", "on", "on", "any", "none", "two"]))
    if first_kind == "on":
        first = [draw(st.sampled_from(ball_on))]
    elif first_kind == "any":
        first = [draw(st.sampled_from(sorted(set(balls))))]
    elif first_kind == "two" and len(balls) >= 2:
        first = draw(st.permutations(balls))[:2]
    else:
        first = []
    pool = [*balls, "white"]
    potted_idx = draw(st.lists(st.integers(0, len(pool) - 1), max_size=3, unique=True))
    pots = [pool[i] for i in potted_idx]
    if draw(st.integers(0, 3)) == 0 and first and first[0] not in pots:
        pots.append(first[0])
    record: dict = {
        "type": "shot",
        "first_contact": first,
        "potted": [
            {"ball": b, "pocket": draw(st.sampled_from([p.value for p in Pocket]))}
            for b in pots
        ],
    }
    rest = [b for b in pool if b not in pots]
    if rest and draw(st.integers(0, 12)) == 0:
        record["off_table"] = [draw(st.sampled_from(rest))]
    if draw(st.integers(0, 4)) == 0:
        record["nominated"] = draw(st.sampled_from(sorted(set(balls))))
    if draw(st.integers(0, 5)) == 0:
        record["miss"] = True
    if draw(st.integers(0, 15)) == 0:
        record["referee_fouls"] = [
            draw(st.sampled_from(["push_stroke", "touched_ball", "measuring"]))
        ]
    if draw(st.integers(0, 6)) == 0:
        record["positions"] = _random_positions(draw, balls)
    if draw(st.booleans()):
        touched = draw(st.lists(st.sampled_from(["white", *first, "red"]), max_size=2))
        record["cushion_after_contact"] = touched
    return record


def _random_positions(draw: st.DrawFn, balls: list[str]) -> dict:
    hl = OFFICIAL.half_length - OFFICIAL.ball_radius
    hw = OFFICIAL.half_width - OFFICIAL.ball_radius
    point = st.tuples(
        st.floats(-hl, hl, allow_nan=False), st.floats(-hw, hw, allow_nan=False)
    ).map(list)
    out: dict = {"white": draw(point)}
    for ball in balls:
        if ball == "red":
            out.setdefault("red", []).append(draw(point))
        else:
            out[ball] = draw(point)
    return out


@st.composite
def random_log(draw: st.DrawFn) -> list[MatchState]:
    """States of a random log, each the result of pushing one record."""
    start = {
        "type": "frame_start",
        "reds": draw(st.integers(1, 15)),
        "variant": draw(st.sampled_from(["wpbsa", "amateur", "american"])),
    }
    states = [MatchState.new().push(parse_record(start, 1))]
    for line in range(2, draw(st.integers(1, 60)) + 2):
        state = states[-1]
        if state.frame is not None and state.frame.frame_over:
            break
        record = parse_record(draw(plausible_record(state)), line)
        try:
            states.append(state.push(record))
        except RulesError:
            continue
    return states


def check_scores_never_decrease(states: list[MatchState]) -> None:
    for before, after in itertools.pairwise(states):
        assert all(
            b <= a for b, a in zip(before.frame.scores, after.frame.scores, strict=True)
        )


def check_every_penalty_is_four_to_seven(states: list[MatchState]) -> None:
    for result in states[-1].frame.shots:
        if result.fouls:
            assert 4 <= result.penalty <= 7
        else:
            assert result.penalty == 0


def check_reds_never_come_back(states: list[MatchState]) -> None:
    """Part 3 rule 3g; the position restored after a miss (rule 14) and a replayed
    stroke (rule 9b) are the seed's exceptions."""
    for before, after in itertools.pairwise(states):
        last = after.frame.last
        restored = after.frame.restored and not before.frame.restored
        replayed = last is not None and last.replayed
        if not restored and not replayed:
            assert after.frame.reds <= before.frame.reds


def check_push_then_pop_is_the_state_before(states: list[MatchState]) -> None:
    for before, after in itertools.pairwise(states):
        assert after.pop() == before
        assert after.pop().to_json() == before.to_json()


def check_points_of_a_foul_stroke_are_not_scored(states: list[MatchState]) -> None:
    """Part 3 rule 11e."""
    for before, after in itertools.pairwise(states):
        last = after.frame.last
        if last is None or last is before.frame.last or not last.fouls:
            continue
        striker = last.player
        assert after.frame.scores[striker] == before.frame.scores[striker]


CHECKS = [
    check_scores_never_decrease,
    check_every_penalty_is_four_to_seven,
    check_reds_never_come_back,
    check_push_then_pop_is_the_state_before,
    check_points_of_a_foul_stroke_are_not_scored,
]


@SETTINGS
@given(random_log())
def test_random_logs_keep_the_invariants(states: list[MatchState]) -> None:
    """One generated log, every invariant (generating logs is the slow part)."""
    for check in CHECKS:
        check(states)


json_value = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 20)
    | st.sampled_from(BALLS)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["ball", "pocket", "foul", "x"]), inner, max_size=2
        )
    ),
    max_leaves=6,
)
junk_record = st.fixed_dictionaries(
    {"type": st.sampled_from(["shot", "decision", "concede", "frame_start", "x"])},
    optional={
        key: json_value
        for key in [
            "first_contact",
            "potted",
            "off_table",
            "nominated",
            "positions",
            "referee_fouls",
            "miss",
            "choice",
            "players",
            "breaker",
            "reds",
            "variant",
            "cushion_after_contact",
            "touching",
            "player",
            "replay",
        ]
    },
)


@SETTINGS
@given(st.lists(junk_record, max_size=25))
def test_no_random_log_crashes_the_engine(records: list[dict]) -> None:
    lines = [json.dumps(r) for r in records]
    result = replay(lines)
    if result.error is not None:
        assert isinstance(result.error, RulesError)
        assert 1 <= result.error.line <= len(lines)
    json.dumps(result.state.to_json())


def test_records_round_trip_their_types() -> None:
    shot = parse_record({"type": "shot", "first_contact": "red", "potted": ["red"]})
    assert isinstance(shot, Shot)
    assert shot.first_contact == ("red",)
    assert isinstance(parse_record({"type": "decision", "choice": "play"}), Decision)


@st.composite
def random_golf(draw: st.DrawFn) -> list[MatchState]:
    """States of a random game of snooker golf."""
    players = draw(st.integers(1, 4))
    start = {
        "type": "frame_start",
        "variant": "golf",
        "players": [f"P{i}" for i in range(players)],
    }
    states = [MatchState.new().push(parse_record(start, 1))]
    pockets = [p.value for p in Pocket]
    for line in range(2, draw(st.integers(1, 80)) + 2):
        frame = states[-1].frame
        if frame.frame_over:
            break
        own = frame.ball_on[0]
        record = {
            "type": "shot",
            "first_contact": draw(st.sampled_from([[own], [own], []])),
            "potted": [
                {"ball": b, "pocket": draw(st.sampled_from(pockets))}
                for b in draw(
                    st.lists(st.sampled_from([own, "white"]), max_size=2, unique=True)
                )
            ],
            "cushion_after_contact": draw(
                st.lists(st.sampled_from([own, "white"]), max_size=2, unique=True)
            ),
        }
        if draw(st.integers(0, 10)) == 0:
            record["off_table"] = [own]
            record["potted"] = [p for p in record["potted"] if p["ball"] != own]
        states.append(states[-1].push(parse_record(record, line)))
    return states


@SETTINGS
@given(random_golf())
def test_random_golf_games_keep_the_invariants(states: list[MatchState]) -> None:
    """Golf rules 5, 8, 12: a stroke adds one, a foul three more, at most three."""
    check_push_then_pop_is_the_state_before(states)
    for before, after in itertools.pairwise(states):
        added = [
            a - b for a, b in zip(after.frame.scores, before.frame.scores, strict=True)
        ]
        assert sorted(added)[-1] in (1, 4)
        assert sum(added) in (1, 4)
        assert all(0 <= h <= 6 for h in after.frame.holes_done)
