"""Snooker golf: the seed's section "Снукер «Гольф»".

Rule numbers below are that section's ("golf rule 8"). Any number of players, each
with a numbered object ball (``"1"`` for the first player, ``"2"`` for the second,
...). Each pots his ball into the six pockets in turn, the fewest strokes winning:
a stroke costs one point, a foul three more.

Played with a set of snooker balls, the players' balls are the colours in order of
value: the first player's ``"1"`` is the yellow, the second's ``"2"`` the green, and
so on (at most six players then); a log may name them either way.

The seed does not number the pockets. Ours go round the table from the top-left
pocket, the object ball starting on the black spot (the "back spot"):
``top_left, top_right, middle_right, baulk_right, baulk_left, middle_left``. A
``frame_start`` with ``"pockets": [...]`` sets another order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from calibration.table import OFFICIAL, Pocket, TableSpec
from rules.balls import COLOURS
from rules.errors import IllegalDecisionError, IllegalShotError
from rules.fouls import FROM_REFEREE, Foul
from rules.frame import Respot, ShotResult
from rules.records import Decision, Record, Shot

GOLF_POCKETS: tuple[Pocket, ...] = (
    Pocket.TOP_LEFT,
    Pocket.TOP_RIGHT,
    Pocket.MIDDLE_RIGHT,
    Pocket.BAULK_RIGHT,
    Pocket.BAULK_LEFT,
    Pocket.MIDDLE_LEFT,
)
"""The default order of the six holes."""

STROKE = 1
"""Golf rule 5: every stroke adds one to the striker's score."""

FOUL_PENALTY = 3
"""Golf rules 5, 8, 12: a foul adds three, and a stroke at most three."""


def golf_ball(player: int) -> str:
    """The object ball of ``player`` (0-based): ``"1"`` for the first player."""
    return str(player + 1)


def golf_colour(player: int) -> str:
    """The snooker ball that stands for ``player``'s ball: the yellow for the first."""
    return COLOURS[player]


def golf_number(name: str) -> str:
    """A colour standing for a player's ball, as that ball's number."""
    return golf_ball(COLOURS.index(name)) if name in COLOURS else name


def numbered_shot(shot: Shot) -> Shot:
    """``shot`` with colours standing for players' balls renamed to their numbers."""
    return replace(
        shot,
        first_contact=tuple(golf_number(b) for b in shot.first_contact),
        potted=tuple(replace(p, ball=golf_number(p.ball)) for p in shot.potted),
        off_table=tuple(golf_number(b) for b in shot.off_table),
        cushion_after_contact=None
        if shot.cushion_after_contact is None
        else tuple(golf_number(b) for b in shot.cushion_after_contact),
        nominated=None if shot.nominated is None else golf_number(shot.nominated),
    )


@dataclass(frozen=True)
class GolfGame:
    """A game of snooker golf: an immutable state like ``FrameState``.

    Attributes:
        table: The table (the back spot is the black spot, the centre spot the
            blue's).
        players: Player names, in order of play.
        breaker: Who plays the first hole first.
        pockets: The six holes in order.
        scores: Strokes plus penalties per player (lowest wins).
        to_play: The striker.
        holes_done: Holes completed per player.
        opening: The next stroke is an opening stroke (golf rule 6).
        in_hand: The cue ball is in hand behind the baulk line (golf rule 11).
        frame_over: Every player has holed out in all six pockets.
        winner: The player with the fewest points, ``None`` on a tie.
        shots: Every stroke's result.
    """

    variant: ClassVar[str] = "golf"

    table: TableSpec
    players: tuple[str, ...]
    breaker: int
    pockets: tuple[Pocket, ...]
    scores: tuple[int, ...]
    to_play: int
    holes_done: tuple[int, ...]
    opening: bool = True
    in_hand: bool = False
    frame_over: bool = False
    winner: int | None = None
    shots: tuple[ShotResult, ...] = ()
    parent: GolfGame | None = field(default=None, compare=False, repr=False)

    @classmethod
    def new(
        cls,
        players: tuple[str, ...] = ("Player 1", "Player 2"),
        breaker: int = 0,
        pockets: tuple[Pocket, ...] | None = None,
        **_: Any,
    ) -> GolfGame:
        """Golf rules 3, 6: the first player's ball on the back spot, the cue ball
        on the centre spot."""
        if not players:
            raise IllegalShotError("snooker golf needs at least one player", "players")
        return cls(
            table=OFFICIAL,
            players=tuple(players),
            breaker=breaker,
            pockets=pockets or GOLF_POCKETS,
            scores=(0,) * len(players),
            to_play=breaker,
            holes_done=(0,) * len(players),
        )

    @property
    def ball_on(self) -> tuple[str, ...]:
        """The striker's own ball."""
        return () if self.frame_over else (golf_ball(self.to_play),)

    @property
    def pocket_on(self) -> Pocket | None:
        """The pocket the striker plays for."""
        if self.frame_over:
            return None
        return self.pockets[self.holes_done[self.to_play]]

    @property
    def last(self) -> ShotResult | None:
        """The last stroke's result."""
        return self.shots[-1] if self.shots else None

    @property
    def breaks(self) -> tuple[int, ...]:
        """Golf has no breaks."""
        return (0,) * len(self.players)

    def pop(self) -> GolfGame:
        """The state before the last ``push``."""
        if self.parent is None:
            raise IndexError("pop from a game with no records pushed")
        return self.parent

    def push(self, record: Record) -> GolfGame:
        """The state after ``record`` (only shots: golf has no decisions)."""
        if isinstance(record, Decision):
            raise IllegalDecisionError(
                "snooker golf has no decisions after a foul", "choice"
            )
        if not isinstance(record, Shot):
            raise IllegalShotError(
                f"a {type(record).__name__} record has no place in snooker golf",
                "type",
            )
        return replace(self._stroke(numbered_shot(record)), parent=self)

    def _check(self, shot: Shot, own: str) -> None:
        allowed = {"white", own}
        for key, names in (
            ("first_contact", shot.first_contact),
            ("potted", shot.potted_balls),
            ("off_table", shot.off_table),
        ):
            for name in names:
                if name not in allowed:
                    raise IllegalShotError(
                        f"ball {name} is not on the table: player {self.to_play} "
                        f"plays ball {own}",
                        key,
                    )
        for pot in shot.potted:
            if pot.ball == own and pot.pocket is None:
                raise IllegalShotError(
                    "snooker golf needs the pocket of the object ball", "potted"
                )

    def _stroke(self, shot: Shot) -> GolfGame:
        """Golf rules 5 to 12: one stroke."""
        if self.frame_over:
            raise IllegalShotError("the game is over: no more shots", "type")
        player = self.to_play
        own = golf_ball(player)
        self._check(shot, own)
        pocket_on = self.pocket_on
        fouls: list[Foul] = []
        pots = [p for p in shot.potted if p.ball == own]
        holed = bool(pots) and pots[0].pocket == pocket_on
        if not shot.first_contact:
            fouls.append(Foul.NO_BALL_STRUCK)  # rule 8: no contact, no cushion
        if pots and not holed:
            fouls.append(Foul.WRONG_POCKET)  # rule 9
        if own in shot.off_table:
            fouls.append(Foul.BALL_OFF_TABLE)  # rule 10
        cushions = shot.cushion_after_contact
        if (
            shot.first_contact
            and cushions is not None
            and not holed
            and not {"white", own} & set(cushions)
        ):
            fouls.append(Foul.NO_CUSHION)  # rule 8
        # Rule 6: the opening stroke must send the object ball to the top cushion
        # (judged from ``cushion_after_contact``: the ball starts on the black spot,
        # by the top cushion).
        opening_failed = (
            self.opening and cushions is not None and not holed and own not in cushions
        )
        if opening_failed:
            fouls.append(Foul.OPENING_SHORT)
        fouls.extend(FROM_REFEREE[f] for f, _ in shot.referee_fouls)
        fouls = list(dict.fromkeys(fouls))
        penalty = FOUL_PENALTY if fouls else 0
        scores = list(self.scores)
        scores[player] += STROKE + penalty
        hole_done = holed and not fouls
        # Rules 9, 10: a ball in the wrong pocket or off the table goes back on the
        # back spot; rule 6: a failed opening puts both balls back.
        respot: tuple[Respot, ...] = ()
        if (pots and not hole_done) or own in shot.off_table or opening_failed:
            respot = (Respot(own, self.table.spots["black"]),)
        cue_gone = "white" in shot.potted_balls or "white" in shot.off_table
        state = replace(
            self,
            scores=tuple(scores),
            in_hand=cue_gone and not opening_failed,
            opening=opening_failed,
        )
        frame_over = False
        if hole_done:
            done = list(self.holes_done)
            done[player] += 1
            following = (player + 1) % len(self.players)
            frame_over = done[following] == len(self.pockets)
            state = replace(
                state,
                holes_done=tuple(done),
                to_play=player if frame_over else following,
                # Rule 6: each player's first hole starts with an opening stroke
                # from the initial position; rule 7: later holes start with the
                # cue ball where it stopped.
                opening=not frame_over and done[following] == 0,
                in_hand=state.in_hand and done[following] > 0,
            )
        result = ShotResult(
            player=player,
            points=STROKE,
            penalty=penalty,
            fouls=tuple(fouls),
            miss=False,
            ball_on=(own,),
            nominated=None,
            free_ball=False,
            potted=tuple(shot.potted_balls),
            respotted=respot,
            free_ball_awarded=False,
            turn_over=hole_done,
            frame_over=frame_over,
            line=shot.line,
        )
        state = replace(state, shots=(*self.shots, result))
        if frame_over:
            best = min(state.scores)
            leaders = [i for i, s in enumerate(state.scores) if s == best]
            state = replace(
                state,
                frame_over=True,
                winner=leaders[0] if len(leaders) == 1 else None,
            )
        return state

    def summary(self) -> dict[str, Any]:
        """The game's part of ``baulk score --json``."""
        return {
            "scores": list(self.scores),
            "to_play": self.to_play,
            "ball_on": list(self.ball_on),
            "free_ball": False,
            "frame_over": self.frame_over,
            "winner": self.winner,
            "current_break": 0,
            "respotted_black": False,
            "on_table": {} if self.frame_over else {golf_ball(self.to_play): 1},
            "breaker": self.breaker,
            "in_hand": self.in_hand,
            "awaiting_decision": False,
            "conceded": False,
            "pocket_on": None if self.pocket_on is None else str(self.pocket_on),
            "holes_done": list(self.holes_done),
            "pockets": [str(p) for p in self.pockets],
        }
