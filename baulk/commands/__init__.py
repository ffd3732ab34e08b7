"""One module per ``baulk`` sub-command, each with ``add_parser`` and ``run``.

``add_parser(subparsers)`` registers the sub-command; ``run(args) -> int`` carries it
out and returns the exit status. Expected failures raise ``baulk.errors.UserError``,
which the entry point prints as one line.
"""

COMMANDS = ("score", "calibrate", "track", "synth", "analyze", "eval")
"""Sub-command modules, in the order ``baulk --help`` lists them."""
