#!/usr/bin/env bash
# Install what is needed and start the dashboard on the bundled sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# every new browser session starts on the bundled sample data (upload your own on the Data page); a server of
# your own reads a WMT folder at any path you type on the Data page - unless BLONDE_WMT_ROOTS gives the folders
# it may read (a shared server's allow-list: docs/server.md)
if [ -z "${BLONDE_WMT_ROOTS:-}" ]; then export BLONDE_LOCAL_FOLDERS="${BLONDE_LOCAL_FOLDERS:-1}"; fi
# a shared server that must give memory back after its sessions close can use the system allocator for every
# Python object (BLONDE_LOW_MEMORY=1), for about 15% more CPU per request: five closed WMT24 en-zh sessions, cold,
# left it +142 MB above its start instead of +182-186 MB, before the records' strings were shared; Python's own
# allocator now leaves +113-123 MB (docs/scale.md)
if [ "${BLONDE_LOW_MEMORY:-0}" = "1" ]; then export PYTHONMALLOC="${PYTHONMALLOC:-malloc}"; fi
BLONDE_AUTOLOAD=sample exec .venv/bin/streamlit run app.py "$@"
