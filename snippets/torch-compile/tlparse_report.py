import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import torch


def normalize(x):
    x = x - x.mean()
    if x.std().item() > 1:
        x = x / x.std()
    return x


if sys.argv[1:] == ["--traced"]:  # the program being traced, run below with TORCH_TRACE set
    compiled = torch.compile(normalize, backend="eager")
    for length in (4, 8):
        compiled(torch.arange(float(length)))
    sys.exit()

with tempfile.TemporaryDirectory() as folder:
    trace, report = Path(folder, "trace"), Path(folder, "report")
    subprocess.run([sys.executable, __file__, "--traced"], env={**os.environ, "TORCH_TRACE": str(trace)},
                   capture_output=True, check=True)
    (log,) = trace.iterdir()
    tlparse = Path(sys.executable).with_name("tlparse")
    subprocess.run([tlparse, log, "-o", report, "--no-browser"], capture_output=True, check=True)
    print("report:", ", ".join(sorted(p.name for p in report.iterdir() if p.is_file())))
    for compile_dir in sorted(p for p in report.iterdir() if p.is_dir()):
        artifacts = sorted({re.sub(r"_\d+$", "", p.stem) for p in compile_dir.iterdir()})
        print(f"  {compile_dir.name}: {', '.join(artifacts)}")
