# marks: slow
# timeout: 900
# method: processes -- each run a new process with its own empty TORCHINDUCTOR_CACHE_DIR; rounds interleave variants
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
from torch import nn
from torch._dynamo.utils import counters

ROUNDS = 3
LATER_STEPS = 20


def train_step(model, x):
    loss = model(x).square().mean()
    loss.backward()


def inductor_start_up():
    """Import Inductor and let it probe the CPU's vector ISA (once per process, the same for both variants)."""
    start = time.perf_counter()
    import torch._inductor.compile_fx  # noqa: F401
    from torch._inductor.cpu_vec_isa import pick_vec_isa

    pick_vec_isa()  # compiles and loads a test library per ISA into the empty cache directory
    return time.perf_counter() - start


def steps(compiled_autograd):
    """Inductor's start-up (s), the first compiled step (s), the median of later steps (ms), the captures."""
    torch.set_num_threads(1)
    torch._dynamo.config.compiled_autograd = compiled_autograd  # read by torch.compile below: set it first
    start_up = inductor_start_up()  # timed apart: otherwise inside the first step of both variants
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 1))
    x = torch.randn(32, 64)
    step = torch.compile(train_step)
    times = []
    for _ in range(1 + LATER_STEPS):
        # As optimizer.zero_grad() does by default: every backward() starts from .grad None, so the
        # later steps run the graph the first one captured (a kept .grad would be captured anew at step 2).
        model.zero_grad(set_to_none=True)
        start = time.perf_counter()
        step(model, x)
        times.append(time.perf_counter() - start)
    return start_up, times[0], statistics.median(times[1:]) * 1e3, counters["compiled_autograd"]["captures"]


if sys.argv[1:2] == ["--child"]:
    print(json.dumps(steps(sys.argv[2] == "on")))
    sys.exit()

VARIANTS = {"default autograd": "off", "compiled autograd": "on"}


def in_new_process(switch):
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, __file__, "--child", switch], env=env,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)


results = {name: [] for name in VARIANTS}
for _ in range(ROUNDS):
    for name, switch in VARIANTS.items():
        results[name].append(in_new_process(switch))


def median_iqr(values, digits):
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{statistics.median(values):.{digits}f} | {q3 - q1:.{digits}f} | {len(values)}"


print("threads: 1")
print("| variant | Inductor import + ISA probe (s) | IQR (s) | runs | first step (s) | IQR (s) | runs "
      "| later step (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, runs in results.items():
    start_up, first, later, _ = zip(*runs, strict=True)
    print(f"| {name} | {median_iqr(start_up, 2)} | {median_iqr(first, 2)} | {median_iqr(later, 3)} |")
for name, runs in results.items():
    captures = sorted({captured for *_, captured in runs})
    print(f"{name}: compiled autograd captures in each process: {captures}")
