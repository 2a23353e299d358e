#!/usr/bin/env bash
# Record every GPU output in one call on a CUDA machine, and gather the recordings to bring back.
#
#   OUT=/some/dir bash scripts/gpu-record.sh [--check] [PATTERN ...]
#
# Needs only Python 3.11+ with torch (a CUDA build), numpy and pytest as $PYTHON (default
# python3): no .venv, no MkDocs, no internet. Runs `python -m docsys gpu` (every `cuda`
# snippet and GPU benchmark; `multi_gpu` ones too with 2+ GPUs), then copies into $OUT
# (default /tmp/gpu-recordings), under the same relative paths:
#   snippets/<slug>/<name>.out and <name>.gpu.json   of every GPU snippet
#   benchmarks/cuda-*/...                            the GPU benchmark result files
#   gpu-record.log                                   the machine, the run, and how long it took
# Bring them back with `cp -r "$OUT"/snippets "$OUT"/benchmarks .` at the repository root,
# review the diff, and commit (CONTRIBUTING.md, "Record GPU outputs").
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
  echo "== $PY -m docsys gpu $*"
} 2>&1 | tee "$LOG"

start=$(date +%s)
"$PY" -m docsys gpu "$@" 2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}
echo "== exit $rc after $(($(date +%s) - start)) s" | tee -a "$LOG"

"$PY" - "$OUT" <<'EOF' 2>&1 | tee -a "$LOG"
import shutil
import sys
from pathlib import Path

from docsys.gpu import gpu_snippets, provenance_path
from docsys.paths import ROOT

out = Path(sys.argv[1])
files = [f for s in gpu_snippets() for f in (s.output_path, provenance_path(s)) if f.exists()]
files += sorted((ROOT / "benchmarks").glob("cuda-*/**/*.json"))
for f in files:
    dest = out / f.relative_to(ROOT)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(f, dest)
print(f"== copied {len(files)} file(s) to {out}")
EOF
exit "$rc"
