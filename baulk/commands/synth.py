"""``baulk synth``: make a synthetic clip with exact ground truth (needs ``[sim]``)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from baulk.errors import UserError


def add_parser(subparsers: Any) -> None:
    """Register ``baulk synth``."""
    parser = subparsers.add_parser(
        "synth",
        help="make a synthetic clip with exact truth (needs the [sim] extra)",
        description="Simulate a few strokes of snooker with pooltool, render them "
        "through a random camera and write video.mp4, truth.json, frames.npz, "
        "calibration.json, match_log.jsonl and expected_score.json into DIR. "
        "The same seed gives the same clip.",
    )
    parser.add_argument("--seed", type=int, default=0, help="clip seed (default 0)")
    parser.add_argument(
        "--camera",
        choices=("overhead", "broadcast"),
        default="overhead",
        help="camera kind (default overhead)",
    )
    parser.add_argument(
        "--strokes", type=int, default=5, help="number of strokes (default 5)"
    )
    parser.add_argument("-o", "--out", type=Path, required=True, help="output folder")
    parser.add_argument("--fps", type=int, default=30, help="frames per second")
    parser.add_argument(
        "--table",
        help="table type (calibration.table.TABLES; default: the variant's table)",
    )
    parser.add_argument(
        "--variant",
        choices=("wpbsa", "amateur", "american", "golf"),
        default="wpbsa",
        help="rules refereeing the clip (default wpbsa)",
    )
    parser.add_argument(
        "--reds",
        type=int,
        choices=(6, 10, 15),
        help="reds in the rack (default: random)",
    )
    parser.add_argument(
        "--cuts",
        action="store_true",
        help="cut to a close-up between some strokes (broadcast footage does)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Generate the clip; 2 on bad arguments or a missing physics engine."""
    from calibration.table import OFFICIAL, table_by_name
    from rules import VARIANTS

    if args.strokes < 1:
        raise UserError("--strokes must be at least 1")
    if not 1 <= args.fps <= 240:
        raise UserError("--fps must be between 1 and 240")
    try:
        table = (
            table_by_name(args.table)
            if args.table
            else getattr(VARIANTS[args.variant], "default_table", OFFICIAL)
        )
    except ValueError as error:
        raise UserError(str(error)) from None
    if args.out.exists() and not args.out.is_dir():
        raise UserError(f"{args.out}: exists and is not a folder")
    try:
        from sim.physics import PhysicsUnavailable, _import_pooltool

        _import_pooltool()
    except PhysicsUnavailable as error:
        raise UserError(str(error)) from None
    from sim.clip import make_clip

    start = time.perf_counter()
    truth = make_clip(
        args.seed,
        args.camera,
        args.strokes,
        args.out,
        fps=args.fps,
        table=table,
        reds=args.reds,
        variant=args.variant,
        cuts=args.cuts,
        verbose=not args.quiet,
    )
    if not args.quiet:
        print(
            f"wrote {args.out}: {truth['frame_count']} frames, "
            f"{len(truth['strokes'])} strokes in {time.perf_counter() - start:.1f} s",
            file=sys.stderr,
        )
    return 0
