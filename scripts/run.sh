#!/usr/bin/env bash
# Install what is needed and start the dashboard on the bundled sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# every new browser session starts on the bundled sample data (upload your own on the Data page)
BLONDE_AUTOLOAD=sample exec .venv/bin/streamlit run app.py "$@"
