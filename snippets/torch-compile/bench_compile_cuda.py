# marks: cuda slow
# timeout: 900
# estimate: 300
# method: processes -- each mode compiles in a fresh process with an empty Inductor cache, as a first run does
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
from torch import nn
from torch.utils import benchmark

ROUNDS, FIRST_CALLS = 10, 3  # reduce-overhead warms up on its 1st call and records its CUDA graph on its 2nd
VARIANTS = ("eager", "default", "reduce-overhead", "max-autotune")


def measure(variant):
    """This fresh process: the first calls together (compiling, and recording a CUDA graph), then steady state."""
    torch.manual_seed(0)
    torch.set_num_threads(1)  # the CPU side of every call, first ones included, as the table's threads line says
    layers = [module for _ in range(8) for module in (nn.Linear(512, 512), nn.GELU())]
    model = nn.Sequential(*layers).cuda().eval()
    x = torch.randn(64, 512, device="cuda")
    fn = model if variant == "eager" else torch.compile(model, mode=variant)
    with torch.no_grad():
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(FIRST_CALLS):
            fn(x)
        torch.cuda.synchronize()
        first = (time.perf_counter() - start) * 1e3
        timer = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x})
        steady = [timer.timeit(50).mean * 1e6 for _ in range(ROUNDS)]
    return first, steady


if len(sys.argv) == 2:
    print(json.dumps(measure(sys.argv[1])))
    sys.exit()

rows = {}
for variant in VARIANTS:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        run = subprocess.run([sys.executable, __file__, variant], capture_output=True, text=True, check=True, env=env)
    rows["eager" if variant == "eager" else f"mode={variant}"] = json.loads(run.stdout)

print("threads: 1")
print(f"| variant | first {FIRST_CALLS} calls (ms) | IQR (ms) | runs | steady state (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, (first, steady) in rows.items():
    q1, _, q3 = statistics.quantiles(steady, n=4)
    print(f"| {name} | {first:.1f} | — | 1 | {statistics.median(steady):.2f} | {q3 - q1:.2f} | {ROUNDS} |")
