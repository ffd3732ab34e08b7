"""``python -m baulk``."""

import sys

from baulk.cli import main

sys.exit(main())
