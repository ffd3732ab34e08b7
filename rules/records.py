"""Match-log records as frozen value objects, parsed from JSON objects.

The format is fixed by ``shared/docs/contracts.md``: one JSON object per line with a
``type`` of ``frame_start``, ``shot``, ``decision`` or ``concede``. Unknown keys are
ignored so that tools may add their own; known keys are validated strictly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from calibration.table import Pocket
from rules.balls import OBJECT_BALLS
from rules.errors import LogError

Point = tuple[float, float]


class RefereeFoul(StrEnum):
    """Fouls a camera cannot see, called by the referee (``referee_fouls``).

    The first eight are the contract's; the rest name the remaining fouls of seed
    Part 3 rule 12 that only a referee can call.
    """

    PUSH_STROKE = "push_stroke"
    JUMP_SHOT = "jump_shot"
    TOUCHED_BALL = "touched_ball"
    FEET_OFF_FLOOR = "feet_off_floor"
    STRUCK_TWICE = "struck_twice"
    WRONG_CUE_BALL = "wrong_cue_ball"
    BALL_OUT_OF_PLAY_USED = "ball_out_of_play_used"
    MEASURING = "measuring"
    OUT_OF_TURN = "out_of_turn"
    NOT_FROM_D = "not_from_d"
    BALLS_NOT_AT_REST = "balls_not_at_rest"
    BEFORE_RESPOT = "before_respot"
    NON_STANDARD_CUE = "non_standard_cue"
    CONFERRING = "conferring"
    WRONG_NOMINATION = "wrong_nomination"
    WRONGLY_SPOTTED = "wrongly_spotted"


class Choice(StrEnum):
    """What the next player chooses after a foul (seed Part 3 rules 11h, 13, 14a)."""

    PLAY = "play"
    PLAY_AGAIN = "play_again"
    RESTORE = "restore"
    PLAY_FROM_HAND = "play_from_hand"
    """International amateur snooker, rule 16: the cue ball angled after a foul, the
    next player plays from the D."""


@dataclass(frozen=True)
class Pot:
    """A ball potted in a stroke, with its pocket when known."""

    ball: str
    pocket: Pocket | None = None


@dataclass(frozen=True)
class Positions:
    """Where the balls came to rest, table frame, mm.

    Attributes:
        balls: ``(name, (x, y))`` pairs; ``red`` may repeat, other names may not.
    """

    balls: tuple[tuple[str, Point], ...]

    def of(self, name: str) -> list[Point]:
        """Every position of balls called ``name``."""
        return [p for n, p in self.balls if n == name]

    @property
    def white(self) -> Point | None:
        """The cue ball's position, or ``None`` when it is off the table."""
        found = self.of("white")
        return found[0] if found else None

    def without(self, name: str, count: int = 1) -> Positions:
        """These positions less ``count`` balls called ``name`` (the last ones)."""
        kept = list(self.balls)
        for _ in range(count):
            for i in range(len(kept) - 1, -1, -1):
                if kept[i][0] == name:
                    del kept[i]
                    break
        return Positions(tuple(kept))

    def with_ball(self, name: str, point: Point) -> Positions:
        """These positions plus a ball called ``name`` at ``point``."""
        return Positions((*self.balls, (name, point)))

    def to_json(self) -> dict[str, Any]:
        """The contract's form: ``{"white": [x, y], "red": [[x, y], ...]}``."""
        out: dict[str, Any] = {}
        for name, (x, y) in self.balls:
            if name == "red":
                out.setdefault("red", []).append([x, y])
            else:
                out[name] = [x, y]
        return out


@dataclass(frozen=True)
class FrameStart:
    """``frame_start``: a new frame with its variant, players and breaker.

    Attributes:
        variant: ``wpbsa``, ``amateur``, ``american`` or ``golf``.
        players: Names in order of play (four: two sides, Part 3 rule 17).
        breaker: Who breaks off (default: alternating, Part 3 rule 3b).
        reds: Reds racked (default 15).
        best_of: The match is the best of this many frames.
        aggregate: Total points over the frames decide the match (Part 3 rule 1g).
        frames: Frames in an aggregate-points match (so the last is known).
        pockets: Snooker golf: the order of the six pockets.
        line: Match-log line number.
    """

    variant: str | None = None
    players: tuple[str, ...] | None = None
    breaker: int | None = None
    reds: int | None = None
    best_of: int | None = None
    aggregate: bool | None = None
    frames: int | None = None
    pockets: tuple[Pocket, ...] | None = None
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Shot:
    """``shot``: one stroke, from the cue striking the cue ball until all is at rest.

    Attributes:
        first_contact: Balls the cue ball struck first (two when struck at once).
        potted: Balls potted, with pockets when known.
        off_table: Balls forced off the table.
        cushion_after_contact: Balls that touched a cushion after the first contact,
            or ``None`` when not observed.
        nominated: The ball nominated before the stroke, if any.
        positions: Where the balls came to rest, when known.
        referee_fouls: Fouls called by the referee.
        miss: The referee called a miss with the foul.
        touching: Balls the referee declared touching the cue ball before the stroke
            (seed Part 3 rule 8); also derived from the previous ``positions``.
        fell_unaided: Balls that fell into a pocket by themselves and took no part
            in the stroke (seed Part 3 rule 9a): replaced, not scored.
        replay: A ball on the edge of a pocket fell and could have been involved
            (seed Part 3 rule 9b): all balls are replaced.
        player: Who plays, given only after a re-spotted black (the toss decides).
        line: Match-log line number, when read from a log.
    """

    first_contact: tuple[str, ...] = ()
    potted: tuple[Pot, ...] = ()
    off_table: tuple[str, ...] = ()
    cushion_after_contact: tuple[str, ...] | None = None
    nominated: str | None = None
    positions: Positions | None = None
    referee_fouls: tuple[tuple[RefereeFoul, str | None], ...] = ()
    miss: bool = False
    touching: tuple[str, ...] = ()
    fell_unaided: tuple[str, ...] = ()
    replay: bool = False
    player: int | None = None
    line: int | None = field(default=None, compare=False)

    @property
    def potted_balls(self) -> list[str]:
        """Names of the potted balls."""
        return [p.ball for p in self.potted]

    @property
    def stroke_pots(self) -> list[str]:
        """The potted balls less those that fell unaided (seed Part 3 rule 9a).

        A ball that fell by itself is replaced and neither scores nor fouls; it is
        taken out once per ``fell_unaided`` entry, so one red that fell by itself
        leaves a red potted in the same stroke counted.
        """
        pots = self.potted_balls
        for ball in self.fell_unaided:
            if ball in pots:
                pots.remove(ball)
        return pots


@dataclass(frozen=True)
class Decision:
    """``decision``: the next player's choice after a foul."""

    choice: Choice
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Concede:
    """``concede``: the player to play concedes the frame (seed Part 4 rule 6)."""

    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Claim:
    """``claim``: the striker ends the frame when only the black is left and he leads
    by more than seven (seed Part 2 rule 1b)."""

    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Forfeit:
    """``forfeit``: the referee awards the frame against ``player`` (seed Part 4
    rules 1 and 2: time wasting after a warning, refusing to continue, misconduct);
    with ``game``, the game too (Part 4 rule 3b)."""

    player: int
    game: bool = False
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Rerack:
    """``rerack``: a stalemate; the frame is restarted (seed Part 3 rule 16)."""

    line: int | None = field(default=None, compare=False)


Record = FrameStart | Shot | Decision | Concede | Claim | Forfeit | Rerack

BALL_NAMES = frozenset(("white", *OBJECT_BALLS))


def is_golf_ball(name: str) -> bool:
    """Snooker golf's object balls are numbered ``"1"``, ``"2"``... (contracts)."""
    return name.isdigit() and not name.startswith("0") and len(name) <= 2


def _ball(value: Any, name: str, line: int | None, allow_white: bool = True) -> str:
    if not isinstance(value, str) or not (value in BALL_NAMES or is_golf_ball(value)):
        raise LogError(f"unknown ball name {value!r}", name, line)
    if value == "white" and not allow_white:
        raise LogError("the cue ball cannot be named here", name, line)
    return value


def _ball_list(
    value: Any, name: str, line: int | None, allow_white: bool = True
) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise LogError(f"expected a list of ball names, got {value!r}", name, line)
    return tuple(_ball(v, name, line, allow_white) for v in value)


def _point(value: Any, name: str, line: int | None) -> Point:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value
        )
        or not all(math.isfinite(v) for v in value)
    ):
        raise LogError(f"expected [x, y] in mm, got {value!r}", name, line)
    return (float(value[0]), float(value[1]))


def _positions(value: Any, line: int | None) -> Positions:
    if not isinstance(value, dict):
        raise LogError("expected an object of ball positions", "positions", line)
    balls: list[tuple[str, Point]] = []
    for name, where in value.items():
        _ball(name, "positions", line)
        if name == "red":
            if not isinstance(where, list) or (
                where and not isinstance(where[0], list | tuple)
            ):
                raise LogError("red positions are a list of [x, y]", "positions", line)
            balls.extend(("red", _point(p, "positions", line)) for p in where)
        else:
            balls.append((name, _point(where, "positions", line)))
    if len([b for b in balls if b[0] == "red"]) > 15:
        raise LogError("more than 15 red positions", "positions", line)
    return Positions(tuple(balls))


def _pots(value: Any, line: int | None) -> tuple[Pot, ...]:
    if not isinstance(value, list):
        raise LogError(f"expected a list of pots, got {value!r}", "potted", line)
    pots = []
    for item in value:
        if isinstance(item, str):
            pots.append(Pot(_ball(item, "potted", line)))
            continue
        if not isinstance(item, dict) or "ball" not in item:
            raise LogError(
                f"expected {{'ball': ..., 'pocket': ...}}, got {item!r}", "potted", line
            )
        pocket = item.get("pocket")
        if pocket is not None:
            try:
                pocket = Pocket(pocket)
            except ValueError:
                raise LogError(f"unknown pocket {pocket!r}", "potted", line) from None
        pots.append(Pot(_ball(item["ball"], "potted", line), pocket))
    return tuple(pots)


def _referee_fouls(
    value: Any, line: int | None
) -> tuple[tuple[RefereeFoul, str | None], ...]:
    if not isinstance(value, list):
        raise LogError("expected a list of fouls", "referee_fouls", line)
    out = []
    for item in value:
        ball = None
        if isinstance(item, dict):
            ball = item.get("ball")
            if ball is not None:
                ball = _ball(ball, "referee_fouls", line)
            item = item.get("foul")
        try:
            out.append((RefereeFoul(item), ball))
        except ValueError:
            known = ", ".join(f.value for f in RefereeFoul)
            raise LogError(
                f"unknown referee foul {item!r} (known: {known})", "referee_fouls", line
            ) from None
    return tuple(out)


def _bool(obj: dict[str, Any], key: str, line: int | None) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise LogError(f"expected true or false, got {value!r}", key, line)
    return value


def parse_record(obj: Any, line: int | None = None) -> Record:
    """One record from a decoded JSON object.

    Raises:
        LogError: the object is not a valid record; names the field.
    """
    if not isinstance(obj, dict):
        raise LogError("a record is a JSON object", "type", line)
    kind = obj.get("type")
    if kind == "shot":
        return _shot(obj, line)
    if kind == "decision":
        try:
            choice = Choice(obj.get("choice"))
        except ValueError:
            raise LogError(
                f"unknown choice {obj.get('choice')!r} (play, play_again or restore)",
                "choice",
                line,
            ) from None
        return Decision(choice, line)
    if kind == "concede":
        return Concede(line)
    if kind == "claim":
        return Claim(line)
    if kind == "rerack":
        return Rerack(line)
    if kind == "forfeit":
        player = obj.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or player < 0:
            raise LogError(f"expected a player index, got {player!r}", "player", line)
        return Forfeit(player, _bool(obj, "game", line), line)
    if kind == "frame_start":
        return _frame_start(obj, line)
    raise LogError(f"unknown record type {kind!r}", "type", line)


def _shot(obj: dict[str, Any], line: int | None) -> Shot:
    first = _ball_list(obj.get("first_contact", []), "first_contact", line, False)
    if len(first) > 2:
        raise LogError(
            "the cue ball can strike at most two balls at once", "first_contact", line
        )
    cushions = obj.get("cushion_after_contact")
    nominated = obj.get("nominated")
    player = obj.get("player")
    if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
        raise LogError(f"expected a player index, got {player!r}", "player", line)
    shot = Shot(
        first_contact=first,
        potted=_pots(obj.get("potted", []), line),
        off_table=_ball_list(obj.get("off_table", []), "off_table", line),
        cushion_after_contact=None
        if cushions is None
        else _ball_list(cushions, "cushion_after_contact", line),
        nominated=None
        if nominated is None
        else _ball(nominated, "nominated", line, allow_white=False),
        positions=None
        if obj.get("positions") is None
        else _positions(obj["positions"], line),
        referee_fouls=_referee_fouls(obj.get("referee_fouls", []), line),
        miss=_bool(obj, "miss", line),
        touching=_ball_list(obj.get("touching", []), "touching", line, False),
        fell_unaided=_ball_list(obj.get("fell_unaided", []), "fell_unaided", line),
        replay=_bool(obj, "replay", line),
        player=player,
        line=line,
    )
    potted = shot.potted_balls
    for name in set(potted) | set(shot.off_table):
        if name != "red" and potted.count(name) + shot.off_table.count(name) > 1:
            raise LogError(
                f"{name} potted or forced off the table twice", "potted", line
            )
    return shot


def _frame_start(obj: dict[str, Any], line: int | None) -> FrameStart:
    players = obj.get("players")
    if players is not None:
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(p, str) for p in players)
        ):
            raise LogError("expected a list of player names", "players", line)
        players = tuple(players)
    breaker = obj.get("breaker")
    if breaker is not None and (
        not isinstance(breaker, int)
        or isinstance(breaker, bool)
        or not 0 <= breaker < len(players or (0, 1))
    ):
        raise LogError(
            f"breaker must be a player index, got {breaker!r}", "breaker", line
        )
    reds = obj.get("reds")
    if reds is not None and (
        not isinstance(reds, int) or isinstance(reds, bool) or not 1 <= reds <= 15
    ):
        raise LogError(f"reds must be 1 to 15, got {reds!r}", "reds", line)
    variant = obj.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise LogError(f"expected a variant name, got {variant!r}", "variant", line)
    counts = {}
    for key in ("best_of", "frames"):
        value = obj.get(key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or value < 1
        ):
            raise LogError(f"expected a number of frames, got {value!r}", key, line)
        counts[key] = value
    aggregate = obj.get("aggregate")
    if aggregate is not None and not isinstance(aggregate, bool):
        raise LogError(f"expected true or false, got {aggregate!r}", "aggregate", line)
    pockets = obj.get("pockets")
    if pockets is not None:
        try:
            pockets = tuple(Pocket(p) for p in pockets)
        except (TypeError, ValueError):
            raise LogError(
                f"expected pocket names, got {pockets!r}", "pockets", line
            ) from None
        if sorted(pockets) != sorted(Pocket):
            raise LogError("name each of the six pockets once", "pockets", line)
    return FrameStart(
        variant,
        players,
        breaker,
        reds,
        counts["best_of"],
        aggregate,
        counts["frames"],
        pockets,
        line,
    )
