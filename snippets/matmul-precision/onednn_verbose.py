# depends: isa -- "medium" sends float32 matmuls to oneDNN only with AVX-512 or AVX-NE-CONVERT; kernels name the ISA
import os
import sys
import tempfile

import torch


def onednn_matmuls(run):
    """The oneDNN primitives `run` executes: oneDNN's verbose mode writes them to file descriptor 1."""
    with tempfile.TemporaryFile() as log:
        sys.stdout.flush()
        saved = os.dup(1)
        os.dup2(log.fileno(), 1)
        try:
            with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
                run()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        lines = log.read().decode().splitlines()
    fields = [line.split(",") for line in lines if ",primitive,exec," in line]
    return [f"{f[5]} {f[6]} | {f[8]} | {f[9]} | {f[11]}" for f in fields]


torch.manual_seed(0)
a, b = torch.randn(2, 512, 512).unbind(0)
for level in ("highest", "medium"):
    torch.set_float32_matmul_precision(level)
    calls = onednn_matmuls(lambda: a @ b)
    print(f"{level}: {len(calls)} oneDNN call(s)", *calls, sep="\n  ")

torch.set_float32_matmul_precision("highest")
calls = onednn_matmuls(lambda: a.bfloat16() @ b.bfloat16())
print(f"bfloat16 operands: {len(calls)} oneDNN call(s)", *calls, sep="\n  ")
