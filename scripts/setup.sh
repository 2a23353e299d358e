#!/usr/bin/env bash
# Set up this machine for the site and its tests: Graphviz's `dot` and the Python venv.
set -euo pipefail
cd "$(dirname "$0")/.."

install_graphviz() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing Graphviz (apt-get install graphviz)"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null
  elif command -v apt-get >/dev/null && sudo -n true 2>/dev/null; then
    echo "setup: installing Graphviz (sudo apt-get install graphviz)"
    sudo apt-get update -qq >/dev/null
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null
  else
    echo "setup: Graphviz 'dot' is missing; install it (Debian/Ubuntu: sudo apt-get install graphviz, macOS: brew install graphviz), then rerun" >&2
    exit 1
  fi
}

command -v dot >/dev/null || install_graphviz

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "setup: Python 3.11+ is required as python3 (found $(python3 --version 2>&1))" >&2
  exit 1
}
[ -x .venv/bin/python ] || python3 -m venv .venv
log=$(mktemp)
if ! .venv/bin/pip install --disable-pip-version-check -r requirements.txt >"$log" 2>&1; then
  grep -v '^WARNING: Location' "$log" | tail -30 >&2
  echo "setup: pip install -r requirements.txt failed (full log: $log)" >&2
  exit 1
fi
rm -f "$log"
echo "setup: ready ($(.venv/bin/python -c 'import torch; print("torch", torch.__version__)'), $(dot -V 2>&1))"
