"""Table geometry the referee needs: sight lines, occupied spots, re-spotting.

Pure Python over ``calibration.table`` (the one source of truth for the table).
Positions are ``(x, y)`` in mm in the table frame of the contracts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from calibration.table import TableSpec
from rules.balls import COLOURS, VALUES

Point = tuple[float, float]

TOUCH_TOLERANCE_MM = 0.5
"""Two balls whose centres are within one diameter plus this are touching."""


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from point ``p`` to the segment ``a``-``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return math.dist(p, a)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def edge_contacts(cue: Point, target: Point, diameter: float) -> list[Point]:
    """Where the cue ball's centre is when it just grazes each edge of ``target``.

    The two points on the circle of radius one ball diameter round ``target`` whose
    tangents pass through ``cue``: the thinnest possible contacts on either side.
    Empty when the balls overlap.
    """
    d = math.dist(cue, target)
    if d <= diameter:
        return []
    base = math.atan2(target[1] - cue[1], target[0] - cue[0])
    half = math.asin(diameter / d)
    reach = math.sqrt(d * d - diameter * diameter)
    return [
        (
            cue[0] + reach * math.cos(base + s * half),
            cue[1] + reach * math.sin(base + s * half),
        )
        for s in (-1.0, 1.0)
    ]


def path_blockers(
    cue: Point, end: Point, obstacles: Iterable[tuple[str, Point]], diameter: float
) -> list[tuple[str, Point]]:
    """Balls that the cue ball would hit travelling straight from ``cue`` to ``end``."""
    return [
        (name, p)
        for name, p in obstacles
        if segment_distance(p, cue, end) < diameter - 1e-9
    ]


@dataclass(frozen=True)
class SnookerCheck:
    """The outcome of the snooker test (seed Part 2 rule 16).

    Attributes:
        snookered: No ball on can be hit on both its edges without a ball not on in
            the way.
        effective: The effectively snookering ball names (rule 16b); empty when
            there is none (rule 16c) or when not snookered.
    """

    snookered: bool
    effective: tuple[str, ...] = ()


def snooker_check(
    cue: Point,
    balls_on: Sequence[Point],
    not_on: Sequence[tuple[str, Point]],
    diameter: float,
) -> SnookerCheck:
    """Whether the cue ball at ``cue`` is snookered (seed Part 2 rule 16).

    The cue ball is not snookered when both extreme edges of at least one ball on
    can be hit by a straight shot with no ball not on in the way. A cushion cannot
    snooker (rule 16e), so pocket jaws are not modelled.

    Args:
        cue: The cue ball's centre.
        balls_on: Centres of every ball on.
        not_on: Names and centres of every other object ball.
        diameter: Ball diameter in mm.
    """
    nearest_per_ball: list[tuple[float, frozenset[str]]] = []
    for target in balls_on:
        contacts = edge_contacts(cue, target, diameter)
        if not contacts:
            # Touching the ball on: it can be played (rule 8), not a snooker.
            return SnookerCheck(False)
        blockers = [
            b for c in contacts for b in path_blockers(cue, c, not_on, diameter)
        ]
        if not blockers:
            return SnookerCheck(False)
        best = min(math.dist(cue, p) for _, p in blockers)
        names = frozenset(
            n for n, p in blockers if math.dist(cue, p) <= best + TOUCH_TOLERANCE_MM
        )
        nearest_per_ball.append((best, names))
    if not nearest_per_ball:
        return SnookerCheck(True)
    # Rule 16b: the snookering ball nearest the cue ball is effective; rule 16c:
    # reds snookered by different balls leave no effective snookering ball.
    first = nearest_per_ball[0][1]
    if all(names == first for _, names in nearest_per_ball):
        return SnookerCheck(True, tuple(sorted(first)))
    return SnookerCheck(True)


def snookered_in_hand(
    table: TableSpec,
    balls_on: Sequence[Point],
    not_on: Sequence[tuple[str, Point]],
    step_mm: float = 10.0,
) -> bool:
    """Snookered from every position in the D (seed Part 2 rule 16a)."""
    diameter = table.ball_diameter_mm
    others = [p for _, p in not_on] + list(balls_on)
    for spot in table.d_points(step_mm):
        if any(math.dist(spot, p) < diameter for p in others):
            continue  # the cue ball cannot be placed there
        if not snooker_check(spot, balls_on, not_on, diameter).snookered:
            return False
    return True


def clear_full_ball_path(
    cue: Point,
    balls_on: Sequence[Point],
    not_on: Sequence[tuple[str, Point]],
    diameter: float,
) -> bool:
    """A straight path to hit some ball on full in the face (seed Part 3 rule 14c).

    Only balls not on can block: for reds, "the full diameter of any red not
    obstructed by a colour".
    """
    return any(not path_blockers(cue, target, not_on, diameter) for target in balls_on)


def touching(
    cue: Point, others: Iterable[tuple[str, Point]], diameter: float
) -> list[str]:
    """Names of the balls the cue ball rests against (seed Part 3 rule 8)."""
    return [
        name for name, p in others if math.dist(cue, p) <= diameter + TOUCH_TOLERANCE_MM
    ]


def occupied(point: Point, balls: Iterable[Point], diameter: float) -> bool:
    """A spot is occupied if a ball put there would touch another (Part 2 rule 17)."""
    return any(math.dist(point, p) <= diameter + 1e-6 for p in balls)


def spot_position(
    table: TableSpec, colour: str, balls: Sequence[Point], step_mm: float = 1.0
) -> Point:
    """Where a colour is re-spotted among ``balls`` (seed Part 3 rule 7).

    Own spot if free (7); else the free spot of the highest-valued colour (7d); else
    as near its own spot as possible between it and the nearest part of the top
    cushion (7f); pink and black, when there is no room there, as near their spot as
    possible on the centre line below it (7g). The placed ball never touches another
    (7h).
    """
    diameter = table.ball_diameter_mm
    spots = table.spots
    own = spots[colour]
    if not occupied(own, balls, diameter):
        return own
    for other in sorted(COLOURS, key=VALUES.__getitem__, reverse=True):
        if not occupied(spots[other], balls, diameter):
            return spots[other]
    x0, y0 = own
    top = table.half_length - table.ball_radius
    steps = int((top - x0) / step_mm)
    for i in range(1, steps + 1):
        candidate = (x0 + i * step_mm, y0)
        if not occupied(candidate, balls, diameter):
            return candidate
    # Rule 7g names pink and black; for the other colours the seed is silent and we
    # follow the same procedure below the spot.
    bottom = -table.half_length + table.ball_radius
    steps = int((x0 - bottom) / step_mm)
    for i in range(1, steps + 1):
        candidate = (x0 - i * step_mm, y0)
        if not occupied(candidate, balls, diameter):
            return candidate
    return own
