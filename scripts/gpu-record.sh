#!/usr/bin/env bash
# Record GPU outputs in one call on a CUDA machine, and gather the recordings to bring back.
#
#   OUT=/some/dir bash scripts/gpu-record.sh [--budget SECONDS] [--force] [--check] [PATTERN ...]
#
# Needs only Python 3.11+ with torch (a CUDA build), numpy and pytest as $PYTHON (default
# python3): no .venv, no MkDocs, no internet. Runs `python -m docsys record --gpu` (every `cuda`
# snippet, `multi_gpu` ones too with 2+ GPUs; quickest first; those already recorded from their
# current source are skipped, so a second call resumes; --budget stops starting new ones), then
# copies into $OUT (default /tmp/gpu-recordings), under the same relative paths, every GPU
# snippet's recording (`.out`, `.record.json`, graph `.dot` and figure `.figure.json` files) and
# gpu-record.log.
# Bring them back with `cp -r "$OUT"/snippets .` at the repository root, review the diff, and
# commit (CONTRIBUTING.md, "Record GPU outputs").
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
OUT=${OUT:-/tmp/gpu-recordings}
mkdir -p "$OUT"
LOG="$OUT/gpu-record.log"

{
  echo "== machine ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || echo "nvidia-smi: not available"
  "$PY" -c 'import sys, torch; print("python", sys.version.split()[0], "| torch", torch.__version__, "| CUDA", torch.version.cuda, "| GPUs", torch.cuda.device_count())'
  echo "== $PY -m docsys record --gpu $*"
} 2>&1 | tee "$LOG"

start=$(date +%s)
"$PY" -m docsys record --gpu "$@" 2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}
echo "== exit $rc after $(($(date +%s) - start)) s" | tee -a "$LOG"

"$PY" - "$OUT" <<'PYEOF' 2>&1 | tee -a "$LOG"
import shutil
import sys
from pathlib import Path

from docsys.core.paths import ROOT
from docsys.core.snippet import discover

out = Path(sys.argv[1])
files = [f for s in discover() if s.platform == "cuda" for f in s.recorded_paths() if f.exists()]
for f in files:
    dest = out / f.relative_to(ROOT)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(f, dest)
print(f"== copied {len(files)} file(s) to {out}")
PYEOF
exit "$rc"
