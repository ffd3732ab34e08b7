"""The table's geometry: the one source of truth for sizes, spots, the D and pockets.

Everything is in the table frame of the contracts (``shared/docs/contracts.md``):
millimetres on the cloth plane, origin at the centre of the playing area (the blue
spot), +x towards the top cushion (the black end), +y towards the left-hand side
cushion as seen from the baulk end.

Pure Python (standard library only) so that the rules engine can use it too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

BALL_DIAMETER_MM = 52.5
"""Seed Part 1 rule 2: balls are 52.5 mm (+-0.05 mm) in diameter."""

CUSHION_NOSE_HEIGHT_MM = 37.0
"""Height of the cushion nose above the cloth (nominal; measured ~37 mm on the real
broadcast frame in ``shared/real``; tables vary by a few millimetres). The playing
area's corners, where the noses meet, lie in the plane z = this height."""


class Pocket(StrEnum):
    """Pocket names; left and right as seen from the baulk end."""

    BAULK_LEFT = "baulk_left"
    BAULK_RIGHT = "baulk_right"
    MIDDLE_LEFT = "middle_left"
    MIDDLE_RIGHT = "middle_right"
    TOP_LEFT = "top_left"
    TOP_RIGHT = "top_right"


Point = tuple[float, float]


@dataclass(frozen=True)
class TableSpec:
    """A snooker table's playing area and markings.

    Attributes:
        name: Table type, e.g. ``"official"``.
        length_mm: Playing area between the cushion noses along x (baulk to top).
        width_mm: Playing area between the side cushion noses along y.
        baulk_line_mm: Distance of the baulk line from the baulk cushion.
        d_radius_mm: Radius of the D, centred on the middle of the baulk line.
        black_spot_mm: Distance of the black spot from the top cushion.
        corner_mouth_mm: Width of a corner pocket's opening between the jaws.
        middle_mouth_mm: Width of a middle pocket's opening between the jaws.
        ball_diameter_mm: Diameter of every ball.
        corner_fall_depth_mm: How far beyond the corner (where the cushion-nose
            lines meet), along its diagonal, lies the centre of a corner pocket's
            fall: the hole a ball drops into.
        corner_fall_radius_mm: A ball whose centre comes this near the fall's
            centre drops (nearer the corner it can stop in the jaws, its centre
            over the cushion lines). With the depth, pooltool's generic snooker
            table, which ``sim`` plays on.
        middle_fall_depth_mm: How far beyond the side cushion-nose line lies
            the centre of a middle pocket's fall.
        middle_fall_radius_mm: As ``corner_fall_radius_mm``, for a middle
            pocket (pooltool's generic snooker table's side pocket, too).
    """

    name: str
    length_mm: float
    width_mm: float
    baulk_line_mm: float
    d_radius_mm: float
    black_spot_mm: float
    corner_mouth_mm: float = 86.0
    middle_mouth_mm: float = 105.0
    ball_diameter_mm: float = BALL_DIAMETER_MM
    corner_fall_depth_mm: float = 36.0
    corner_fall_radius_mm: float = 43.0
    middle_fall_depth_mm: float = 24.13
    middle_fall_radius_mm: float = 42.672

    def __post_init__(self) -> None:
        if not (0 < self.width_mm < self.length_mm):
            raise ValueError(
                f"table {self.name!r}: need 0 < width < length, "
                f"got {self.width_mm} x {self.length_mm} mm"
            )
        if not (0 < self.baulk_line_mm < self.length_mm / 2):
            raise ValueError(f"table {self.name!r}: baulk line outside the baulk half")
        if not (0 < self.d_radius_mm < self.width_mm / 2):
            raise ValueError(f"table {self.name!r}: D wider than the table")

    @property
    def half_length(self) -> float:
        """Half the playing length: the top cushion nose is at x = +half_length."""
        return self.length_mm / 2

    @property
    def half_width(self) -> float:
        """Half the playing width: the left cushion nose is at y = +half_width."""
        return self.width_mm / 2

    @property
    def ball_radius(self) -> float:
        """Ball radius in mm."""
        return self.ball_diameter_mm / 2

    @property
    def touch_limits(self) -> tuple[float, float]:
        """``(|x|, |y|)`` mm of a ball's centre as it touches an end / a side
        cushion's nose: half the playing length / width less a radius."""
        return (self.half_length - self.ball_radius,
                self.half_width - self.ball_radius)

    @property
    def baulk_line_x(self) -> float:
        """x of the baulk line (negative: it lies in the baulk half)."""
        return -self.half_length + self.baulk_line_mm

    @property
    def spots(self) -> dict[str, Point]:
        """The six colour spots (seed Part 1 rule 1f), keyed by colour name."""
        pink_x = self.half_length / 2
        return {
            "yellow": (self.baulk_line_x, -self.d_radius_mm),
            "green": (self.baulk_line_x, self.d_radius_mm),
            "brown": (self.baulk_line_x, 0.0),
            "blue": (0.0, 0.0),
            "pink": (pink_x, 0.0),
            "black": (self.half_length - self.black_spot_mm, 0.0),
        }

    @property
    def corners(self) -> dict[str, Point]:
        """Playing-area corners where the cushion noses meet, named like pockets."""
        hl, hw = self.half_length, self.half_width
        return {
            "baulk_left": (-hl, hw),
            "baulk_right": (-hl, -hw),
            "top_left": (hl, hw),
            "top_right": (hl, -hw),
        }

    @property
    def pockets(self) -> dict[Pocket, Point]:
        """Pocket positions: the point where the cushion-nose lines meet the pocket.

        Corner pockets sit at the playing-area corners, middle pockets at the middle
        of the side cushions.
        """
        hl, hw = self.half_length, self.half_width
        return {
            Pocket.BAULK_LEFT: (-hl, hw),
            Pocket.BAULK_RIGHT: (-hl, -hw),
            Pocket.MIDDLE_LEFT: (0.0, hw),
            Pocket.MIDDLE_RIGHT: (0.0, -hw),
            Pocket.TOP_LEFT: (hl, hw),
            Pocket.TOP_RIGHT: (hl, -hw),
        }

    @property
    def jaw_points(self) -> dict[str, Point]:
        """Nominal pocket jaw points: where a cushion nose ends at a pocket mouth.

        Named ``POCKET_jaw_x`` / ``POCKET_jaw_y`` for corner pockets (the jaw on the
        end cushion and on the side cushion: the mouth is measured across the
        diagonal, so each jaw lies ``mouth / sqrt(2)`` from the corner along its
        nose line) and ``POCKET_jaw_baulk`` / ``POCKET_jaw_top`` for middle pockets
        (each ``mouth / 2`` from the middle along the side nose line). Nominal:
        real jaws are cut by hand and differ by a few millimetres.
        """
        hw = self.half_width
        d = self.corner_mouth_mm / math.sqrt(2.0)
        m = self.middle_mouth_mm / 2
        points: dict[str, Point] = {}
        for name, (cx, cy) in self.corners.items():
            sx = 1.0 if cx > 0 else -1.0
            sy = 1.0 if cy > 0 else -1.0
            points[f"{name}_jaw_x"] = (cx, cy - sy * d)
            points[f"{name}_jaw_y"] = (cx - sx * d, cy)
        for name, y in (("middle_left", hw), ("middle_right", -hw)):
            points[f"{name}_jaw_baulk"] = (-m, y)
            points[f"{name}_jaw_top"] = (m, y)
        return points

    @property
    def named_points(self) -> dict[str, Point]:
        """Every named table point a user can click: corners, middle pockets, spots
        (``yellow`` ... ``black``, the spot, not the ball) and jaw points."""
        points: dict[str, Point] = dict(self.corners)
        points["middle_left"] = (0.0, self.half_width)
        points["middle_right"] = (0.0, -self.half_width)
        points.update(self.spots)
        points.update(self.jaw_points)
        return points

    def corner_falls(self) -> dict[Pocket, Point]:
        """Centres of the corner pockets' falls (see ``corner_fall_depth_mm``)."""
        d = self.corner_fall_depth_mm / math.sqrt(2.0)
        return {p: (x + math.copysign(d, x), y + math.copysign(d, y))
                for p, (x, y) in self.pockets.items()
                if p not in (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT)}

    def in_corner_jaws(self, point: Point) -> bool:
        """Is a ball centred at ``point`` by a corner pocket's mouth, short of
        its fall: in the jaws, where it can stop?"""
        return -math.inf < self.inside_corner_fall(point) < 0.0

    def inside_corner_fall(self, point: Point) -> float:
        """How far (mm) a ball centred at ``point`` by a corner pocket's mouth
        (within half the mouth and a ball's width of the pocket's point) lies
        inside that pocket's fall (negative: short of it); -inf by none."""
        return max((self.corner_fall_radius_mm - math.dist(point, fall)
                    for p, fall in self.corner_falls().items()
                    if math.dist(point, self.pockets[p])
                    < 0.5 * self.pocket_mouth(p) + self.ball_diameter_mm),
                   default=-math.inf)

    def falls(self) -> dict[Pocket, tuple[Point, float]]:
        """Every pocket's fall: its centre and the radius within which a ball's
        centre drops (``corner_fall_*``, ``middle_fall_*``)."""
        out = {p: (f, self.corner_fall_radius_mm)
               for p, f in self.corner_falls().items()}
        for p in (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT):
            x, y = self.pockets[p]
            out[p] = ((x, y + math.copysign(self.middle_fall_depth_mm, y)),
                      self.middle_fall_radius_mm)
        return out

    def rolls_into_fall(self, point: Point, heading: Point, run_mm: float) -> bool:
        """Does a ball centred at ``point``, rolling ``run_mm`` on along
        ``heading`` (any length) before it stops, come within a pocket's fall
        (``falls``), and drop?"""
        run = self.run_to_fall(point, heading)
        return run is not None and run <= run_mm

    def run_to_fall(self, point: Point, heading: Point) -> float | None:
        """How far a ball centred at ``point`` rolls along ``heading`` (any
        length) before it comes within a pocket's fall (``falls``; 0 when it is
        already there); None when its line misses every fall."""
        n = math.hypot(*heading)
        if n == 0.0:
            return None
        ux, uy = heading[0] / n, heading[1] / n
        best = None
        for (fx, fy), r in self.falls().values():
            dx, dy = fx - point[0], fy - point[1]
            along = dx * ux + dy * uy
            miss2 = dx * dx + dy * dy - along * along
            if miss2 > r * r:
                continue
            half = math.sqrt(r * r - miss2)
            if along + half < 0.0:
                continue  # (behind it)
            u = max(along - half, 0.0)
            if best is None or u < best:
                best = u
        return best

    def pocket_mouth(self, pocket: Pocket) -> float:
        """Width of a pocket's opening in mm."""
        if pocket in (Pocket.MIDDLE_LEFT, Pocket.MIDDLE_RIGHT):
            return self.middle_mouth_mm
        return self.corner_mouth_mm

    def in_d(self, point: Point, tolerance: float = 1e-6) -> bool:
        """True if a ball centred at ``point`` stands in the D or on its line.

        Seed Part 3 rule 5: in hand, the cue ball is placed inside the D or on its
        line.
        """
        x, y = point
        bx = self.baulk_line_x
        if x > bx + tolerance:
            return False
        return math.hypot(x - bx, y) <= self.d_radius_mm + tolerance

    def on_bed(self, point: Point, tolerance: float = 1e-6) -> bool:
        """True if a ball centred at ``point`` fits between the cushion noses."""
        x, y = point
        r = self.ball_radius
        return (
            abs(x) <= self.half_length - r + tolerance
            and abs(y) <= self.half_width - r + tolerance
        )

    def d_points(self, step_mm: float = 10.0) -> list[Point]:
        """Sample points covering the D (its arc, its straight line and its inside).

        Used for "snookered from every position in the D" (seed Part 2 rule 16a).

        Args:
            step_mm: Spacing of the samples along the boundary and of the grid inside.
        """
        bx, radius = self.baulk_line_x, self.d_radius_mm
        points: list[Point] = []
        arc_steps = max(8, math.ceil(math.pi * radius / step_mm))
        for i in range(arc_steps + 1):
            angle = math.pi / 2 + math.pi * i / arc_steps
            points.append((bx + radius * math.cos(angle), radius * math.sin(angle)))
        line_steps = max(2, math.ceil(2 * radius / step_mm))
        for i in range(line_steps + 1):
            points.append((bx, -radius + 2 * radius * i / line_steps))
        n = math.ceil(radius / step_mm)
        for i in range(1, n + 1):
            for j in range(-n, n + 1):
                p = (bx - i * step_mm, j * step_mm)
                if math.hypot(p[0] - bx, p[1]) < radius:
                    points.append(p)
        return points


OFFICIAL = TableSpec(
    name="official",
    length_mm=3569.0,
    width_mm=1778.0,
    baulk_line_mm=737.0,
    d_radius_mm=292.0,
    black_spot_mm=324.0,
)
"""Seed Part 1 rule 1: the 12 ft table, 3569 x 1778 mm, baulk line 737 mm, D 292 mm,
black spot 324 mm from the top cushion."""

AMATEUR = TableSpec(
    name="amateur",
    length_mm=3500.0,
    width_mm=1750.0,
    baulk_line_mm=700.0,
    d_radius_mm=292.0,
    # The seed's amateur section gives the bed, the baulk line and the D but not the
    # black spot; we keep the official 324 mm from the top cushion.
    black_spot_mm=324.0,
)
"""Seed, international amateur snooker, rules 1, 4 and 5: 3500 x 1750 mm, baulk line
700 mm, D radius 292 mm."""


def _scaled(name: str, length_mm: float, width_mm: float) -> TableSpec:
    """A smaller table with the official markings scaled by the length ratio.

    The seed does not describe tables under 12 ft. Manufacturers scale the markings
    with the bed; these are nominal beds: measure your own table and build a
    ``TableSpec`` for it when it differs.
    """
    k = length_mm / OFFICIAL.length_mm
    return TableSpec(
        name=name,
        length_mm=length_mm,
        width_mm=width_mm,
        baulk_line_mm=round(OFFICIAL.baulk_line_mm * k, 1),
        d_radius_mm=round(OFFICIAL.d_radius_mm * k, 1),
        black_spot_mm=round(OFFICIAL.black_spot_mm * k, 1),
        corner_mouth_mm=OFFICIAL.corner_mouth_mm,
        middle_mouth_mm=OFFICIAL.middle_mouth_mm,
    )


TABLES: dict[str, TableSpec] = {
    "official": OFFICIAL,
    "amateur": AMATEUR,
    "10ft": _scaled("10ft", 2997.0, 1499.0),
    "9ft": _scaled("9ft", 2692.0, 1346.0),
    "6ft": _scaled("6ft", 1778.0, 889.0),
}
"""Every table type by the name ``--table`` takes."""


def table_by_name(name: str) -> TableSpec:
    """The table spec called ``name`` (one of ``TABLES``).

    Raises:
        ValueError: unknown table type, naming the known ones.
    """
    try:
        return TABLES[name]
    except KeyError:
        known = ", ".join(TABLES)
        raise ValueError(f"unknown table type {name!r} (known: {known})") from None
