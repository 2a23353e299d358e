# marks: slow
# timeout: 300
# method: processes -- each variant (eager too) in a new process; warm cache reuses the cold one; start-up timed apart
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


def inductor_start_up():
    """Once per process, before any compilation: import Inductor and let it probe the CPU's vector ISA (ms)."""
    start = time.perf_counter()
    import torch._inductor.compile_fx  # noqa: F401
    from torch._inductor.cpu_vec_isa import pick_vec_isa

    pick_vec_isa()  # builds and loads a test library per candidate ISA; cached for the rest of the process
    return (time.perf_counter() - start) * 1e3


def measure(variant):
    """Inductor's start-up (ms, compiled only), the first call's time (ms), then steady-state times (us)."""
    start_up = inductor_start_up() if variant == "compiled" else None
    fn = torch.compile(gelu_tanh) if variant == "compiled" else gelu_tanh
    torch.manual_seed(0)
    x = torch.randn(1024, 1024)
    start = time.perf_counter()
    fn(x)
    first = (time.perf_counter() - start) * 1e3
    timer = benchmark.Timer("f(x)", globals={"f": fn, "x": x})  # one thread, like the first call
    return start_up, first, [timer.timeit(20).mean * 1e6 for _ in range(ROUNDS)]


torch.set_num_threads(1)
if sys.argv[1:2] == ["--variant"]:  # what each new process below runs
    print(json.dumps(measure(sys.argv[2])))
    sys.exit()


def in_new_process(variant, cache_dir):
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache_dir}
    done = subprocess.run([sys.executable, __file__, "--variant", variant], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


with tempfile.TemporaryDirectory() as cache:
    rows = {
        "eager": in_new_process("eager", cache),
        "torch.compile, new process, empty cache": in_new_process("compiled", cache),
        "torch.compile, new process, warm cache": in_new_process("compiled", cache),  # the cache the one before filled
    }


def break_even(first, steady):
    """Calls after which the compiled function has saved its extra first-call time (start-up not counted)."""
    _, eager_first, eager_steady = rows["eager"]
    saved_us = statistics.median(eager_steady) - statistics.median(steady)
    return f"{(first - eager_first) * 1e3 / saved_us:.0f}" if saved_us > 0 else "—"


print("threads: 1")
print("| variant | Inductor start-up (ms) | IQR (ms) | runs | first call (ms) | IQR (ms) | runs "
      "| steady state (us) | IQR (us) | runs | break-even (calls) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, (start_up, first, steady) in rows.items():
    q1, _, q3 = statistics.quantiles(steady, n=4)
    start_up_cells = "— | — | —" if start_up is None else f"{start_up:.1f} | — | 1"
    calls = "—" if name == "eager" else break_even(first, steady)
    print(f"| {name} | {start_up_cells} | {first:.1f} | — | 1 | {statistics.median(steady):.1f} | {q3 - q1:.1f} "
          f"| {ROUNDS} | {calls} |")
