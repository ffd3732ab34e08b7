"""Seed Part 3 rule 7: spotting colours (and Part 2 rule 17, the occupied spot).

Where a colour goes is worked out here from the seed: its own spot if free (7), else
the free spot of the highest value (7d, the higher colour first, 7e), else as near
its own spot as possible towards the top cushion (7f), and for pink and black, when
that fails, as near as possible below the spot on the centre line (7g). A spot is
occupied when a ball put there would touch another (Part 2 rule 17).
"""

from __future__ import annotations

import pytest

from tests.rules.helpers import SPOTS, D, last, layout, play, pot, shot, start

HALF_LENGTH = 3569.0 / 2
TOP = HALF_LENGTH - D / 2
"""Largest x of a ball's centre against the top cushion."""


def _where(result, colour):
    found = [r.position for r in result.respotted if r.ball == colour]
    assert len(found) == 1, result.respotted
    return found[0]


def test_part3_rule7_colour_potted_with_reds_left_goes_back_on_its_own_spot():
    for colour in ("yellow", "green", "brown", "blue", "pink", "black"):
        result = last(pot("red"), pot(colour))
        assert _where(result, colour) == pytest.approx(SPOTS[colour])
        assert play(pot("red"), pot(colour)).to_json()["on_table"][colour] == 1


def test_part3_rule7_own_spot_used_when_free_with_positions():
    positions = layout((0.0, -300.0), reds=[(500.0, 300.0)])
    del positions["black"]
    result = last(start(reds=2), pot("red"), pot("black", positions=positions))
    assert _where(result, "black") == pytest.approx(SPOTS["black"])


def test_part3_rule7_d_own_spot_taken_highest_value_free_spot():
    # The cue ball rests 30 mm from the pink spot (it would touch a ball there); the
    # black is away from its spot: the pink goes on the black spot.
    pink = SPOTS["pink"]
    positions = layout(
        (pink[0] - 30.0, 0.0),
        reds=[(500.0, 300.0)],
        colours=("yellow", "green", "brown", "blue", "black"),
        black=(1200.0, 500.0),
    )
    result = last(start(reds=2), pot("red"), pot("pink", positions=positions))
    assert _where(result, "pink") == pytest.approx(SPOTS["black"])


def test_part3_rule7_d_next_highest_free_spot():
    # The black on its spot, the blue away from its spot: the pink goes on the blue
    # spot, the highest free one.
    pink = SPOTS["pink"]
    positions = layout(
        (pink[0] - 30.0, 0.0),
        reds=[(500.0, 300.0)],
        colours=("yellow", "green", "brown", "blue", "black"),
        blue=(-300.0, 500.0),
    )
    result = last(start(reds=2), pot("red"), pot("pink", positions=positions))
    assert _where(result, "pink") == pytest.approx(SPOTS["blue"])


def test_part3_rule7_e_several_colours_the_higher_value_first():
    # A foul: pink and black both potted; reds on both their spots; the blue and
    # brown spots free. The black takes the higher free spot (blue), the pink the
    # next (brown).
    positions = layout(
        (0.0, -500.0),
        reds=[SPOTS["pink"], SPOTS["black"], (300.0, 600.0)],
        colours=("yellow", "green", "brown", "blue"),
        brown=(-500.0, 600.0),
        blue=(-200.0, 600.0),
    )
    stroke = shot("red", ["pink", "black"], positions=positions)
    result = last(start(reds=3), stroke)
    assert result.penalty == 7
    assert _where(result, "black") == pytest.approx(SPOTS["blue"])
    assert _where(result, "pink") == pytest.approx(SPOTS["brown"])


@pytest.mark.parametrize(
    "colour", ["yellow", "green", "brown", "blue", "pink", "black"]
)
def test_part3_rule7_f_all_spots_taken_towards_the_top_cushion(colour):
    # A red on the colour's own spot; every other spot holds its colour. The colour
    # goes as near its spot as possible between it and the top cushion, on the
    # spot's line (7f), touching no ball (7h).
    sx, sy = SPOTS[colour]
    others = tuple(c for c in SPOTS if c != colour)
    positions = layout((0.0, -600.0), reds=[(sx, sy)], colours=others)
    stroke = shot("red", [colour], positions=positions)
    result = last(start(reds=2), stroke)
    x, y = _where(result, colour)
    assert y == pytest.approx(sy)
    assert sx + D < x <= sx + D + 2.0


def test_part3_rule7_g_black_below_its_spot_when_no_room_towards_the_cushion():
    # Reds from the black spot to the top cushion, 53 mm apart: no room there. The
    # black goes as near its spot as possible on the centre line below it.
    bx = SPOTS["black"][0]
    reds = [(bx + 53.0 * k, 0.0) for k in range(6)]
    assert reds[-1][0] + D > TOP  # no room behind the last red either
    positions = layout((0.0, -600.0), reds=reds, colours=SPOTS.keys() - {"black"})
    result = last(start(reds=6), shot("red", ["black"], positions=positions))
    x, y = _where(result, "black")
    assert y == pytest.approx(0.0)
    assert bx - D - 2.0 <= x < bx - D


def test_part3_rule7_g_pink_below_its_spot_when_no_room_towards_the_cushion():
    # Reds every 100 mm from the pink spot to the top cushion (a ball between two
    # of them would touch one); the black off the centre line.
    px = SPOTS["pink"][0]
    reds = [(px + 100.0 * k, 0.0) for k in range(9)] + [(1750.0, 0.0)]
    colours = ("yellow", "green", "brown", "blue", "black")
    positions = layout((0.0, -600.0), reds=reds, colours=colours, black=(1200, 500))
    result = last(start(reds=10), shot("red", ["pink"], positions=positions))
    x, y = _where(result, "pink")
    assert y == pytest.approx(0.0)
    assert px - D - 2.0 <= x < px - D


def test_part3_rule7_spotted_colour_is_in_the_positions_for_what_follows():
    # The black spotted on the blue spot (own spot and pink spot taken) is where the
    # next snooker test looks for it.
    positions = layout(
        (0.0, -500.0),
        reds=[SPOTS["black"], SPOTS["pink"], (300.0, 600.0)],
        colours=("yellow", "green", "brown", "blue"),
        blue=(-200.0, 600.0),
        pink=(-600.0, 600.0),
    )
    state = play(start(reds=3), shot("red", ["black"], positions=positions))
    assert state.frame.positions is not None
    assert state.frame.positions.of("black") == [pytest.approx(SPOTS["blue"])]
