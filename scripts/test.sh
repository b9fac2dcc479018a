#!/usr/bin/env bash
# Install what is needed and run the whole test suite.
#   bash scripts/test.sh --fast   unit and pipeline tests only (no AppTest, no browser, nothing slow): minutes
set -euo pipefail
cd "$(dirname "$0")/.."
FAST=0
if [ "${1:-}" = "--fast" ]; then
  FAST=1
  shift
fi
bash scripts/setup.sh --dev
if [ "$FAST" = "1" ]; then
  exec .venv/bin/python -m pytest -m "not app and not browser and not slow" "$@"
fi
# The browser test drives Debian's Chromium (Playwright never downloads a browser here), with Noto CJK so that
# the screenshots of Chinese and Japanese pages show their text, not empty boxes.
if ! command -v chromium >/dev/null 2>&1 || ! fc-list 2>/dev/null | grep -qi "noto sans cjk"; then
  if [ "$(id -u)" = "0" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  else
    echo "scripts/test.sh: Chromium is missing; install Debian's chromium package" >&2
  fi
fi
exec .venv/bin/python -m pytest "$@"
