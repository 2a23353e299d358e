#!/usr/bin/env bash
# Set up this machine for the site and its tests. Serving needs Graphviz, the CJK fonts and the Python
# venv; the tests need Chromium and poppler-utils as well.
#   bash scripts/setup.sh           everything the tests need: Graphviz, CJK fonts, Chromium, poppler and the venv
#   bash scripts/setup.sh serve     what serving and building the site need: Graphviz, CJK fonts and the venv
#   bash scripts/setup.sh python    only the venv (all that recording outputs needs)
#   bash scripts/setup.sh site      only the Debian packages building the site needs: Graphviz, CJK fonts
#   bash scripts/setup.sh system    only the Debian packages the tests need besides those
# A Debian package that is already installed is never installed again, so only a missing one needs
# root (or sudo without a password); without either, the script stops and names the command.
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
case $part in
  all | serve | python | site | system) ;;
  *) echo "setup: unknown part '$part' (all, serve, python, site, system)" >&2; exit 2 ;;
esac

# Debian packages: Graphviz's `dot` draws the graphs when the site is built (serving included), and
# fonts-noto-cjk's Noto Sans CJK SC is the source of the font the zh print edition is printed with
# (docsys/build/print_edition/font.py subsets it; the build fails without it). chromium is the
# browser that docsys/checks/browser.py drives headless in the tests (Playwright uses it; it downloads
# no browser), and poppler-utils' pdffonts reads the fonts of the PDF it prints: serving needs neither.
missing=()
if [ "$part" != python ] && [ "$part" != system ]; then
  command -v dot >/dev/null || missing+=(graphviz)
  fc-list ':family=Noto Sans CJK SC' 2>/dev/null | grep -q . || missing+=(fonts-noto-cjk)
fi
if [ "$part" = all ] || [ "$part" = system ]; then
  command -v chromium >/dev/null || missing+=(chromium)
  command -v pdffonts >/dev/null || missing+=(poppler-utils)
fi

install_system_packages() {
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "setup: installing ${missing[*]} (apt-get install)"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  elif command -v apt-get >/dev/null && sudo -n true 2>/dev/null; then
    echo "setup: installing ${missing[*]} (sudo apt-get install)"
    sudo apt-get update -qq >/dev/null
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "setup: missing ${missing[*]}; install them (Debian/Ubuntu: sudo apt-get install ${missing[*]}), then rerun" >&2
    exit 1
  fi
}

[ ${#missing[@]} -eq 0 ] || install_system_packages
case $part in site | system) exit 0 ;; esac

# Python 3.11 exactly: the pinned torch==2.13.0 is taken as its CPU build for 3.11; for 3.12 or 3.13 pip
# resolves PyPI's CUDA build instead (torch plus ~20 NVIDIA packages, several GB), which no test here ran on.
python=${PYTHON:-python3}
[ -x .venv/bin/python ] && python=.venv/bin/python
"$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null || {
  echo "setup: Python 3.11 is required (found $("$python" --version 2>&1) as $python); run with PYTHON=python3.11, or remove .venv" >&2
  exit 1
}
[ -x .venv/bin/python ] || "$python" -m venv .venv
log=$(mktemp)
if ! .venv/bin/pip install --disable-pip-version-check -r requirements.txt >"$log" 2>&1; then
  grep -v '^WARNING: Location' "$log" | tail -30 >&2
  echo "setup: pip install -r requirements.txt failed (full log: $log)" >&2
  exit 1
fi
rm -f "$log"
echo "setup: ready ($(.venv/bin/python -c 'import torch; print("torch", torch.__version__)'))"
