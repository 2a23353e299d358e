# marks: slow
# timeout: 300
# method: processes -- a first call is a first only in a new process; the warm-cache one reuses the cold one's cache
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
from torch.utils import benchmark

ROUNDS = 10


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def first_and_steady(fn):
    """The first call's time (ms), then steady-state times (us) of later calls."""
    torch.manual_seed(0)
    x = torch.randn(1024, 1024)
    start = time.perf_counter()
    fn(x)
    first = (time.perf_counter() - start) * 1e3
    timer = benchmark.Timer("f(x)", globals={"f": fn, "x": x})  # one thread, like the first call
    return first, [timer.timeit(20).mean * 1e6 for _ in range(ROUNDS)]


torch.set_num_threads(1)
if sys.argv[1:] == ["--compiled"]:  # what each new process below runs
    print(json.dumps(first_and_steady(torch.compile(gelu_tanh))))
    sys.exit()


def in_new_process(cache_dir):
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache_dir}
    done = subprocess.run([sys.executable, __file__, "--compiled"], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


with tempfile.TemporaryDirectory() as cache:
    rows = {
        "eager": first_and_steady(gelu_tanh),
        "torch.compile, new process, empty cache": in_new_process(cache),
        "torch.compile, new process, warm cache": in_new_process(cache),  # the cache the one before filled
    }



def break_even(first, steady):
    """Calls after which the compiled function has saved its extra first-call time."""
    eager_first, eager_steady = rows["eager"][0], statistics.median(rows["eager"][1])
    saved_us = eager_steady - statistics.median(steady)
    return f"{(first - eager_first) * 1e3 / saved_us:.0f}" if saved_us > 0 else "—"


print("threads: 1")
print("| variant | first call (ms) | IQR (ms) | runs | steady state (us) | IQR (us) | runs | break-even (calls) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, (first, steady) in rows.items():
    q1, _, q3 = statistics.quantiles(steady, n=4)
    calls = "—" if name == "eager" else break_even(first, steady)
    print(f"| {name} | {first:.1f} | — | 1 | {statistics.median(steady):.1f} | {q3 - q1:.1f} | {ROUNDS} | {calls} |")
