#!/usr/bin/env sh
# Install the physics extra for `baulk synth` (pooltool 0.6.0) into the current Python.
# Usage: sh sim/install.sh [python]   (default: python3)
set -eu
PY="${1:-python3}"
HERE="$(cd "$(dirname "$0")" && pwd)"
"$PY" -m pip install -r "$HERE/requirements.txt"
"$PY" -m pip install --no-deps "pooltool-billiards==0.6.0"
