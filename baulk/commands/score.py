"""``baulk score LOG [--variant V] [--json]``: replay a match log through the rules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from baulk.errors import UserError
from rules import VARIANTS, MatchState, replay


def add_parser(subparsers: Any) -> None:
    """Register ``baulk score``."""
    parser = subparsers.add_parser(
        "score",
        help="score a match log (JSON Lines) with the rules engine",
        description="Replay a match log through the rules engine and print the "
        "final state. A bad line stops the replay: its number and field are "
        "printed, with the state before it, and the exit status is 2.",
    )
    parser.add_argument("log", type=Path, help="match log, JSON Lines ('-' for stdin)")
    parser.add_argument(
        "--variant",
        choices=sorted(VARIANTS),
        help="rules to score by (default: the log's frame_start, else wpbsa)",
    )
    parser.add_argument("--json", action="store_true", help="print the state as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay the log and print the state; 2 on a bad line."""
    lines = _read_lines(args.log)
    result = replay(lines, variant=args.variant)
    print(render(result.state, as_json=args.json))
    if result.error is not None:
        raise UserError(str(result.error) + " (state above is before that line)")
    return 0


def _read_lines(path: Path) -> list[str]:
    if str(path) == "-":
        return sys.stdin.read().splitlines()
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{path}: is a directory, not a match log") from None
    except UnicodeDecodeError as error:
        raise UserError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except OSError as error:
        raise UserError(f"{path}: {error.strerror}") from None


def render(state: MatchState, as_json: bool) -> str:
    """The state as JSON, or as a short scoreboard for people."""
    data = state.to_json()
    if as_json:
        return json.dumps(data)
    golf = data["variant"] == "golf"
    names = data["players"]
    if "sides" in data:  # fours: scores and frames per side
        names = [" & ".join(names[p] for p in side) for side in data["sides"]]
    lines = []
    for i, name in enumerate(names):
        playing = i == data["to_play"] % len(names) and not data["frame_over"]
        marker = "*" if playing else " "
        extra = (
            f"holes {data['holes_done'][i]}"
            if golf
            else f"frames {data['frames_won'][i]}   highest break "
            f"{max(data['highest_break'][i::len(names)])}"
        )
        lines.append(f"{marker} {name:<20} {data['scores'][i]:>4}   {extra}")
    if data["frame_over"]:
        winner = "nobody" if data["winner"] is None else names[data["winner"]]
        how = " (conceded)" if data["conceded"] else ""
        what = "game" if golf else f"frame {data['frame_number']}"
        lines.append(f"{what} over: {winner} wins{how}")
    elif golf:
        lines.append(f"ball on {data['ball_on'][0]} into {data['pocket_on']}")
    else:
        on = ", ".join(data["ball_on"]) or "-"
        free = "  FREE BALL" if data["free_ball"] else ""
        lines.append(
            f"frame {data['frame_number']}: ball on {on}{free}   break "
            f"{data['current_break']}   remaining {data['points_remaining']}"
        )
    if data["match_over"]:
        tally = data["points_total"] if data["aggregate"] else data["frames_won"]
        best = data["match_winner"]
        who = "drawn" if best is None else f"won by {names[best]}"
        lines.append(f"match over, {who}: {' - '.join(map(str, tally))}")
    return "\n".join(lines)
