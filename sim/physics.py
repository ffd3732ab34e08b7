"""One stroke of snooker physics with pooltool 0.6.0, in the contracts' table frame.

pooltool is an optional dependency (the ``[sim]`` extra, ``sim/requirements.txt``);
importing this module does not import it, ``simulate_stroke`` does.

pooltool's frame: metres, origin at the baulk-left cushion corner, x across the
width (towards the right side cushion), y along the length (baulk y=0). The table
frame: mm, origin at the blue spot, +x to the top cushion, +y to the left side. So
``x_table = 1000 * y_pt - L/2`` and ``y_table = W/2 - 1000 * x_pt``.

Balls are identified by keys: ``white``, the colours by name and the reds as
``red_01`` ... (contract name: the key up to the underscore).

Off-table events (pooltool balls never leave the bed) are modelled here: a ball that
meets a cushion faster than ``OFF_TABLE_SPEED`` may jump it (probability
``OFF_TABLE_PROB``); it flies away across the cushion on a parabola and the rest of
the stroke is simulated again from that instant without it.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.table import OFFICIAL, TableSpec

INSTALL_HINT = (
    "the physics engine is missing: install the [sim] extra with "
    "`sh sim/install.sh .venv/bin/python` (pip install -r sim/requirements.txt, "
    "then pip install --no-deps pooltool-billiards==0.6.0)"
)

OFF_TABLE_SPEED = 4.0
"""Ball speed (m/s) into a cushion above which it may jump off the table."""
OFF_TABLE_PROB = 0.25
"""Probability that such a ball leaves the table."""
OFF_TABLE_FLIGHT_S = 0.35
"""Seconds a ball leaving the table stays in view before it is gone."""

POCKET_NAMES = {
    "lb": "baulk_left",
    "lc": "middle_left",
    "lt": "top_left",
    "rb": "baulk_right",
    "rc": "middle_right",
    "rt": "top_right",
}
"""pooltool pocket ids to contract pocket names."""


class PhysicsUnavailable(ImportError):
    """pooltool (the ``[sim]`` extra) is not installed."""


def ball_name(key: str) -> str:
    """Contract name of a ball key: ``red_03`` -> ``red``."""
    return key.split("_")[0]


@dataclass(frozen=True)
class PhysEvent:
    """One physics event of a stroke.

    Attributes:
        time: Seconds from the cue striking the cue ball.
        kind: ``strike``, ``ball_ball``, ``cushion`` (a cushion or a pocket jaw),
            ``pocket`` or ``off_table``.
        balls: Ball keys involved (one, or two for ``ball_ball``).
        pocket: Contract pocket name for ``pocket`` events, else None.
        cushion: For ``cushion``/``off_table``: ``baulk``, ``top``, ``left``,
            ``right`` or ``jaw``; else None.
    """

    time: float
    kind: str
    balls: tuple[str, ...]
    pocket: str | None = None
    cushion: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "time": round(self.time, 6),
            "kind": self.kind,
            "balls": list(self.balls),
            "pocket": self.pocket,
            "cushion": self.cushion,
        }


@dataclass(frozen=True)
class Shot:
    """How the cue strikes the cue ball.

    Attributes:
        angle_deg: Direction of the cue ball's travel in the table frame, degrees
            counter-clockwise from +x.
        speed: Cue speed, m/s.
        side: Side spin offset a (-1..1 of the ball radius, + = right).
        height: Follow/screw offset b (-1..1, + = top spin).
    """

    angle_deg: float
    speed: float
    side: float = 0.0
    height: float = 0.0


@dataclass(frozen=True, eq=False)
class StrokeSim:
    """A simulated stroke: events and exact trajectories.

    Attributes:
        keys: Ball keys, length N.
        start_xy: (N, 2) float64 positions before the stroke, table mm.
        final_xy: (N, 2) float64 rest positions, table mm (NaN if potted/off).
        events: Events in time order (frozen ``PhysEvent``).
        duration: Seconds from the strike until every ball is at rest or gone.
        potted: Ball key -> contract pocket name.
        off_table: Ball keys forced off the table.
    """

    keys: tuple[str, ...]
    start_xy: np.ndarray
    final_xy: np.ndarray
    events: tuple[PhysEvent, ...]
    duration: float
    potted: Mapping[str, str]
    off_table: tuple[str, ...]
    _segments: tuple[Any, ...]
    _table: TableSpec

    def positions(self, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Ball centres at the given times.

        Args:
            times: (T,) float seconds from the strike (clipped to [0, duration]).

        Returns:
            (xyz, on_table): (T, N, 3) float64 centres in table mm (z = radius on
            the cloth; rises for a ball in flight off the table; NaN once a ball is
            potted or gone) and (T, N) bool, True while the ball is on the table or
            in flight in view.
        """
        times = np.clip(np.asarray(times, dtype=np.float64), 0.0, self.duration)
        n = len(self.keys)
        xyz = np.full((len(times), n, 3), np.nan)
        for seg in self._segments:
            seg.fill(times, self.keys, xyz, self._table)
        return xyz, ~np.isnan(xyz[..., 0])


def _import_pooltool() -> Any:
    """Import pooltool with HOME pointed at a scratch folder (it writes config)."""
    if sys.modules.get("pooltool") is not None:
        return sys.modules["pooltool"]
    home = os.environ.get("HOME")
    scratch = os.path.join(tempfile.gettempdir(), "baulk-pooltool-home")
    os.makedirs(scratch, exist_ok=True)
    os.environ["HOME"] = scratch
    try:
        import pooltool as pt
    except ImportError as error:  # pragma: no cover - depends on the install
        raise PhysicsUnavailable(INSTALL_HINT) from error
    finally:
        if home is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = home
    return pt


@dataclass(frozen=True, eq=False)
class _Segment:
    """A pooltool simulation valid from t0 (stroke time) for some balls."""

    t0: float
    t1: float
    system: Any
    keys: tuple[str, ...]

    def fill(
        self,
        times: np.ndarray,
        keys: tuple[str, ...],
        out: np.ndarray,
        table: TableSpec,
    ) -> None:
        pt = _import_pooltool()
        sel = (times >= self.t0) & (times <= self.t1)
        if not sel.any():
            return
        local = times[sel] - self.t0
        for key in self.keys:
            i = keys.index(key)
            ball = self.system.balls[key]
            states = pt.interpolate_ball_states(ball, local, extrapolate=True)
            rvw = np.array([s.rvw[0] for s in states])
            pocketed = np.array([s.s == 4 for s in states])
            xy = _to_table(rvw[:, :2], table)
            vals = np.column_stack([xy, np.full(len(xy), table.ball_radius)])
            vals[pocketed] = np.nan
            out[np.nonzero(sel)[0], i] = vals


@dataclass(frozen=True, eq=False)
class _Flight:
    """A ball leaving the table from t0: parabola outward across a cushion."""

    t0: float
    key: str
    start: np.ndarray  # (3,) mm
    velocity: np.ndarray  # (3,) mm/s

    def fill(
        self,
        times: np.ndarray,
        keys: tuple[str, ...],
        out: np.ndarray,
        table: TableSpec,
    ) -> None:
        sel = (times >= self.t0) & (times <= self.t0 + OFF_TABLE_FLIGHT_S)
        if not sel.any():
            return
        dt = times[sel] - self.t0
        pos = self.start[None, :] + dt[:, None] * self.velocity[None, :]
        pos[:, 2] -= 0.5 * 9810.0 * dt**2
        out[np.nonzero(sel)[0], keys.index(self.key)] = pos


def _to_table(xy_pt: np.ndarray, table: TableSpec) -> np.ndarray:
    """pooltool (N, 2) metres -> table frame (N, 2) mm."""
    xy_pt = np.asarray(xy_pt, dtype=np.float64).reshape(-1, 2)
    return np.column_stack(
        [
            1000.0 * xy_pt[:, 1] - table.half_length,
            table.half_width - 1000.0 * xy_pt[:, 0],
        ]
    )


def _to_pt(xy: np.ndarray, table: TableSpec) -> np.ndarray:
    """Table frame (N, 2) mm -> pooltool (N, 2) metres."""
    xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
    return np.column_stack(
        [
            (table.half_width - xy[:, 1]) / 1000.0,
            (xy[:, 0] + table.half_length) / 1000.0,
        ]
    )


def _phi_pt(angle_deg: float) -> float:
    """Table-frame direction (deg from +x, ccw) -> pooltool phi (deg from +x_pt)."""
    a = math.radians(angle_deg)
    return math.degrees(math.atan2(math.cos(a), -math.sin(a))) % 360.0


_CACHE: dict[str, Any] = {}


def _pt_table(table: TableSpec) -> Any:
    pt = _import_pooltool()
    key = f"table-{table.name}-{table.length_mm}-{table.width_mm}"
    if key not in _CACHE:
        import attrs
        from pooltool.objects.table.collection import TABLE_SPECS, TableName

        specs = attrs.evolve(
            TABLE_SPECS[TableName.SNOOKER_GENERIC],
            l=table.length_mm / 1000.0,
            w=table.width_mm / 1000.0,
            corner_pocket_depth=table.corner_fall_depth_mm / 1000.0,
            corner_pocket_radius=table.corner_fall_radius_mm / 1000.0,
            side_pocket_depth=table.middle_fall_depth_mm / 1000.0,
            side_pocket_radius=table.middle_fall_radius_mm / 1000.0,
        )
        _CACHE[key] = pt.Table.from_table_specs(specs)
    return _CACHE[key]


def _engine() -> Any:
    if "engine" not in _CACHE:
        _import_pooltool()
        from pooltool.physics.engine import PhysicsEngine
        from pooltool.physics.resolve.resolver import default_resolver

        _CACHE["engine"] = PhysicsEngine(resolver=default_resolver())
    return _CACHE["engine"]


def _ball_params(table: TableSpec) -> Any:
    _import_pooltool()
    import attrs
    from pooltool.objects.ball.params import BallParams, PrebuiltBallParams

    return attrs.evolve(
        BallParams.prebuilt(PrebuiltBallParams.SNOOKER_GENERIC),
        R=table.ball_radius / 1000.0,
    )


def _cushion_side(xy_mm: np.ndarray, table: TableSpec) -> str:
    x, y = float(xy_mm[0]), float(xy_mm[1])
    gaps = {
        "top": table.half_length - x,
        "baulk": table.half_length + x,
        "left": table.half_width - y,
        "right": table.half_width + y,
    }
    return min(gaps, key=gaps.__getitem__)


def simulate_stroke(
    positions: Mapping[str, tuple[float, float]],
    shot: Shot,
    rng: np.random.Generator,
    table: TableSpec = OFFICIAL,
    cue_key: str = "white",
    allow_off_table: bool = True,
) -> StrokeSim:
    """Simulate one stroke from balls at rest.

    Args:
        positions: Ball key -> (x, y) table mm, every ball on the table.
        shot: The cue action.
        rng: Decides off-table jumps.
        table: Table dimensions.
        cue_key: Key of the cue ball.
        allow_off_table: Model balls jumping off the table.

    Raises:
        PhysicsUnavailable: pooltool is not installed (message has the install hint).
    """
    pt = _import_pooltool()
    keys = tuple(positions)
    start = np.array([positions[k] for k in keys], dtype=np.float64).reshape(-1, 2)
    params = _ball_params(table)
    ptable = _pt_table(table)
    engine = _engine()

    system = None
    error: Exception | None = None
    for attempt in range(3):
        # pooltool occasionally trips an assertion on a degenerate collision; a
        # hundredth of a degree more or less avoids it.
        balls = {}
        for key, xy in zip(keys, _to_pt(start, table), strict=True):
            ball = pt.Ball(id=key, params=params)
            ball.state.rvw[0] = [xy[0], xy[1], params.R]
            balls[key] = ball
        system = pt.System(cue=pt.Cue(cue_ball_id=cue_key), table=ptable, balls=balls)
        system.strike(
            V0=shot.speed,
            phi=_phi_pt(shot.angle_deg + 0.01 * attempt),
            a=shot.side,
            b=shot.height,
            theta=0.0,
        )
        try:
            pt.simulate(system, engine=engine, inplace=True)
            error = None
            break
        except Exception as exc:
            error = exc
    if error is not None:
        raise RuntimeError(f"pooltool failed to simulate the stroke: {error!r}")

    segments: list[Any] = []
    events: list[PhysEvent] = []
    potted: dict[str, str] = {}
    off: list[str] = []
    t_offset = 0.0
    live = keys
    while True:
        jump = None
        for ev in system.events:
            conv = _convert_event(ev, t_offset, system, table)
            if conv is None:
                continue
            if allow_off_table and conv.kind == "cushion" and conv.cushion != "jaw":
                speed = _incoming_speed(ev)
                if speed > OFF_TABLE_SPEED and rng.random() < OFF_TABLE_PROB:
                    jump = (ev, conv, speed)
                    break
            events.append(conv)
            if conv.kind == "pocket":
                potted[conv.balls[0]] = conv.pocket or ""
        if jump is None:
            end = t_offset + float(system.t)
            segments.append(_Segment(t_offset, end, system, live))
            break
        ev, conv, speed = jump
        t_local = float(ev.time)
        t_abs = t_offset + t_local
        segments.append(_Segment(t_offset, t_abs, system, live))
        key = conv.balls[0]
        events.append(PhysEvent(t_abs, "off_table", (key,), cushion=conv.cushion))
        off.append(key)
        # The ball's flight: outward through the cushion line, rising, then falling.
        state = pt.interpolate_ball_states(system.balls[key], [t_local])[0]
        p0 = _to_table(state.rvw[0][:2], table)[0]
        normal = {
            "top": (1.0, 0.0),
            "baulk": (-1.0, 0.0),
            "left": (0.0, 1.0),
            "right": (0.0, -1.0),
        }[conv.cushion or "top"]
        along = np.array([-normal[1], normal[0]])
        v_in = _to_table_vec(state.rvw[1][:2])
        v_flight = (
            1000.0 * speed * 0.6 * np.array(normal) + 0.5 * (v_in @ along) * along
        )
        segments.append(
            _Flight(
                t_abs,
                key,
                np.array([p0[0], p0[1], table.ball_radius]),
                np.array([v_flight[0], v_flight[1], 1600.0]),
            )
        )
        # Re-simulate the others from that instant.
        remaining = [k for k in live if k != key and k not in potted]
        new_balls = {}
        for k in remaining:
            st = pt.interpolate_ball_states(system.balls[k], [t_local])[0]
            b = pt.Ball(id=k, params=params)
            b.state = pt.objects.BallState(rvw=st.rvw.copy(), s=st.s, t=0.0)
            new_balls[k] = b
        live = tuple(remaining)
        t_offset = t_abs
        if not remaining or all(b.state.s == 0 for b in new_balls.values()):
            break
        cue_id = cue_key if cue_key in new_balls else remaining[0]
        system = pt.System(
            cue=pt.Cue(cue_ball_id=cue_id), table=ptable, balls=new_balls
        )
        pt.simulate(system, engine=engine, inplace=True)

    duration = max(
        max((s.t1 for s in segments if isinstance(s, _Segment)), default=0.0),
        max(
            (s.t0 + OFF_TABLE_FLIGHT_S for s in segments if isinstance(s, _Flight)),
            default=0.0,
        ),
    )
    events.sort(key=lambda e: e.time)
    sim = StrokeSim(
        keys=keys,
        start_xy=start,
        final_xy=np.zeros((0, 2)),
        events=tuple(events),
        duration=duration,
        potted=potted,
        off_table=tuple(off),
        _segments=tuple(segments),
        _table=table,
    )
    final, _ = sim.positions(np.array([duration]))
    final_xy = final[0, :, :2].copy()
    for k in list(potted) + off:
        final_xy[keys.index(k)] = np.nan
    object.__setattr__(sim, "final_xy", final_xy)
    return sim


def _to_table_vec(v_pt: np.ndarray) -> np.ndarray:
    """pooltool velocity (2,) m/s -> table frame (2,) mm/s."""
    return np.array([1000.0 * v_pt[1], -1000.0 * v_pt[0]])


def _incoming_speed(ev: Any) -> float:
    agent = ev.agents[0]
    if agent.initial is None:
        return 0.0
    return float(np.linalg.norm(agent.initial.state.rvw[1][:2]))


def _convert_event(
    ev: Any, t_offset: float, system: Any, table: TableSpec
) -> PhysEvent | None:
    """pooltool event -> ``PhysEvent`` (None for motion transitions)."""
    kind = str(ev.event_type)
    ids = [a.id for a in ev.agents]
    t = t_offset + float(ev.time)
    if kind == "stick_ball":
        return PhysEvent(t, "strike", (ids[1],))
    if kind == "ball_ball":
        return PhysEvent(t, "ball_ball", (ids[0], ids[1]))
    if kind in ("ball_linear_cushion", "ball_circular_cushion"):
        if kind == "ball_circular_cushion":
            side = "jaw"
        else:
            agent = ev.agents[0]
            state = agent.final if agent.final is not None else agent.initial
            xy = _to_table(state.state.rvw[0][:2], table)[0]
            side = _cushion_side(xy, table)
        return PhysEvent(t, "cushion", (ids[0],), cushion=side)
    if kind == "ball_pocket":
        return PhysEvent(
            t, "pocket", (ids[0],), pocket=POCKET_NAMES.get(ids[1], ids[1])
        )
    return None
