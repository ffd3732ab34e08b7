"""A simple simulated player: picks a ball on and a pocket, aims with error, or plays
safe. Which balls are on comes from ``sim.sequencing`` (the rules engine)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from calibration.table import TableSpec
from sim.physics import Shot, StrokeSim
from sim.sequencing import COLOURS, FrameState, name_of

Simulate = Callable[[Mapping[str, tuple[float, float]], Shot], StrokeSim]
"""Trial simulation without off-table events: (positions, shot) -> StrokeSim."""


@dataclass(frozen=True)
class Plan:
    """What the player tries.

    Attributes:
        kind: ``break``, ``pot`` or ``safe``.
        target: Key of the object ball aimed at (None: none reachable).
        pocket: Contract pocket name for ``pot``.
        nominated: The colour nominated (after a red), else None.
        shot: The cue action actually played (aim error included).
    """

    kind: str
    target: str | None
    pocket: str | None
    nominated: str | None
    shot: Shot


def _aim_points(table: TableSpec) -> dict[str, np.ndarray]:
    pts = {}
    for pocket, (x, y) in table.pockets.items():
        if pocket.value.startswith("middle"):
            pts[pocket.value] = np.array([x, y + math.copysign(25.0, y)])
        else:
            pts[pocket.value] = np.array([x, y]) + 15.0 * np.sign([x, y])
    return pts


def _clear(
    a: np.ndarray, b: np.ndarray, others: list[np.ndarray], width: float
) -> bool:
    ab = b - a
    length2 = float(ab @ ab)
    if length2 < 1e-9:
        return True
    for p in others:
        s = float(np.clip((p - a) @ ab / length2, 0.0, 1.0))
        if np.linalg.norm(a + s * ab - p) < width:
            return False
    return True


def _angle(v: np.ndarray) -> float:
    return math.degrees(math.atan2(v[1], v[0]))


def choose_shot(
    state: FrameState,
    table: TableSpec,
    rng: np.random.Generator,
    simulate: Simulate | None = None,
    skill_deg: float = 0.35,
    safety_prob: float = 0.15,
) -> Plan:
    """Choose and aim the next stroke (the cue ball must be on the table).

    Args:
        state: The frame; ``state.positions["white"]`` is the cue ball.
        table: Table dimensions.
        rng: Random source (choice, aim and speed error).
        simulate: Trial simulation to correct the aim for throw (None: no trials).
        skill_deg: Standard deviation of the aim error, degrees.
        safety_prob: Chance of playing safe when a pot is on.
    """
    r = table.ball_radius
    pos = {k: np.array(v, dtype=float) for k, v in state.positions.items()}
    cue = pos["white"]
    on = state.on_keys()
    if state.strokes == 0 and state.ball_on == "red":
        return _break(state, table, rng, pos, on)
    candidates = []
    for key in on:
        obj = pos[key]
        others = [p for k, p in pos.items() if k not in ("white", key)]
        for pocket, target in _aim_points(table).items():
            if state.pocket_on is not None and pocket != state.pocket_on:
                continue
            u = target - obj
            d2 = float(np.linalg.norm(u))
            u /= d2
            ghost = obj - 2 * r * u
            v = ghost - cue
            d1 = float(np.linalg.norm(v))
            if d1 < 1e-6:
                continue
            cut = math.degrees(math.acos(float(np.clip(v @ u / d1, -1, 1))))
            if cut > 70:
                continue
            if not _clear(cue, ghost, others, 2 * r) or not _clear(
                obj, target, others, 2 * r
            ):
                continue
            cost = cut / 25 + d1 / 1500 + d2 / 1000 + rng.uniform(0, 0.5)
            candidates.append((cost, key, pocket, ghost, d1, d2))
    nominated_default = None
    if state.ball_on == "colour":
        nominated_default = "black"
    if candidates and rng.random() > safety_prob:
        candidates.sort(key=lambda c: c[0])
        _, key, pocket, ghost, d1, d2 = candidates[0]
        speed = float(np.clip(0.9 + 0.55 * (d1 + 1.3 * d2) / 1000, 1.0, 3.2))
        angle = _angle(ghost - cue)
        side = float(rng.uniform(-0.15, 0.15))
        height = float(rng.uniform(-0.4, 0.3))
        if simulate is not None:
            want = _angle(_aim_points(table)[pocket] - pos[key])
            angle = _corrected(
                state,
                simulate,
                key,
                pocket,
                Shot(angle, speed, side, height),
                want,
                d1,
                r,
            )
        shot = Shot(
            angle_deg=angle + float(rng.normal(0, skill_deg)),
            speed=speed * float(rng.uniform(0.93, 1.07)),
            side=side,
            height=height,
        )
        nominated = name_of(key) if state.ball_on == "colour" else None
        return Plan("pot", key, pocket, nominated, shot)
    # Safety: a thin contact on a reachable ball on, at low speed.
    reach = [
        k
        for k in on
        if _clear(
            cue, pos[k], [p for kk, p in pos.items() if kk not in ("white", k)], 2 * r
        )
    ]
    target = reach[int(rng.integers(len(reach)))] if reach else (on[0] if on else None)
    if target is None:
        return Plan("safe", None, None, None, Shot(float(rng.uniform(0, 360)), 1.0))
    v = pos[target] - cue
    d = float(np.linalg.norm(v))
    thin = math.degrees(math.asin(min(1.0, 1.7 * r / max(d, 2 * r))))
    if state.pocket_on is not None:
        thin = 0.0  # snooker golf: no safety, send the ball on towards the hole
    angle = _angle(v) + thin * float(rng.choice([-1.0, 1.0]))
    shot = Shot(
        angle_deg=angle + float(rng.normal(0, skill_deg)),
        speed=float(rng.uniform(1.2, 2.2)),
        side=float(rng.uniform(-0.3, 0.3)),
        height=float(rng.uniform(-0.5, 0.0)),
    )
    nominated = (
        name_of(target) if state.ball_on == "colour" and target else nominated_default
    )
    return Plan("safe", target, None, nominated, shot)


def _corrected(
    state: FrameState,
    simulate: Simulate,
    key: str,
    pocket: str,
    shot: Shot,
    want_deg: float,
    d1: float,
    r: float,
) -> float:
    """Correct the aim for throw and squirt with a few trial simulations.

    Each trial measures the object ball's direction after the contact and turns
    the cue by the error times the contact's leverage (2 R / distance to the ghost).
    """
    angle = shot.angle_deg
    for _ in range(4):
        trial = simulate(state.positions, replace(shot, angle_deg=angle))
        if trial.potted.get(key) == pocket:
            return angle
        hit = next(
            (
                e.time
                for e in trial.events
                if e.kind == "ball_ball" and set(e.balls) == {"white", key}
            ),
            None,
        )
        if hit is None:
            return angle
        p, _ = trial.positions(np.array([hit + 0.01, hit + 0.04]))
        i = trial.keys.index(key)
        d = p[1, i, :2] - p[0, i, :2]
        if not np.all(np.isfinite(d)) or np.linalg.norm(d) < 1e-6:
            return angle
        err = (_angle(d) - want_deg + 180.0) % 360.0 - 180.0
        angle += err * (2 * r / max(d1, 2 * r))
    return angle


def _break(
    state: FrameState,
    table: TableSpec,
    rng: np.random.Generator,
    pos: dict[str, np.ndarray],
    on: list[str],
) -> Plan:
    """Break-off: thin on the end red of the back row, with pace and side."""
    cue = pos["white"]
    reds = [pos[k] for k in on]
    back_x = max(p[0] for p in reds)
    side = 1.0 if cue[1] >= 0 else -1.0
    row = [k for k in on if abs(pos[k][0] - back_x) < 5]
    target = max(row, key=lambda k: side * pos[k][1])
    v = pos[target] - cue
    d = float(np.linalg.norm(v))
    r = table.ball_radius
    thin = math.degrees(math.asin(min(1.0, 1.2 * r / d)))
    shot = Shot(
        angle_deg=_angle(v) + side * thin + float(rng.normal(0, 0.2)),
        speed=float(rng.uniform(3.5, 5.0)),
        side=0.0,
        height=float(rng.uniform(-0.2, 0.2)),
    )
    return Plan("break", target, None, None, shot)


def is_colour(key: str) -> bool:
    """True for a colour's key."""
    return name_of(key) in COLOURS
