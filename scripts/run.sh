#!/usr/bin/env bash
# Install what is needed and start the dashboard on the bundled sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/streamlit run app.py "$@"
