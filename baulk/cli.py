"""The ``baulk`` command: ``baulk SUBCOMMAND ...``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from baulk import __version__
from baulk.commands import COMMANDS
from baulk.errors import UserError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="baulk", description="A computer-vision referee for snooker."
    )
    parser.add_argument("--version", action="version", version=f"baulk {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"baulk.commands.{name}")
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except UserError as error:
        print(f"baulk {args.command}: error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(f"baulk {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
