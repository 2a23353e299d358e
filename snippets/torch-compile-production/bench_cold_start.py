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


def train_step(model, x):
    loss = nn.functional.gelu(model(x)).square().mean()
    loss.backward()
    return loss


def inductor_start_up():
    """Import Inductor and let it probe the CPU's vector ISA (once per process; no artifact carries them)."""
    start = time.perf_counter()
    import torch._inductor.compile_fx  # noqa: F401
    from torch._inductor.cpu_vec_isa import pick_vec_isa

    pick_vec_isa()  # compiles and loads a test library per ISA into the empty cache directory
    return time.perf_counter() - start


def first_step(artifacts_path, load):
    """Inductor's start-up, then the first torch.compile call (loading artifacts included) to the end of the step."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model, x = nn.Linear(32, 32), torch.randn(8, 32)
    start_up = inductor_start_up()  # timed apart: otherwise inside the first step of both variants
    start = time.perf_counter()
    if load:
        with open(artifacts_path, "rb") as file:
            torch.compiler.load_cache_artifacts(file.read())
    torch.compile(train_step)(model, x)
    seconds = time.perf_counter() - start
    if not load:
        with open(artifacts_path, "wb") as file:
            file.write(torch.compiler.save_cache_artifacts()[0])
    return start_up, seconds, counters["inductor"]["fxgraph_cache_hit"]


if sys.argv[1:2] == ["--child"]:
    print(json.dumps(first_step(sys.argv[2], sys.argv[3] == "load")))
    sys.exit()

VARIANTS = {"empty cache": "compile", "empty cache + load_cache_artifacts": "load"}


def in_new_process(mode, artifacts_path):
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        start = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--child", artifacts_path, mode], env=env,
                              capture_output=True, text=True, check=True)
        return [*json.loads(done.stdout), time.perf_counter() - start]


results = {name: [] for name in VARIANTS}
with tempfile.TemporaryDirectory() as shared:
    artifacts_path = os.path.join(shared, "artifacts.bin")
    for _ in range(ROUNDS):  # each round's "load" process loads what that round's "compile" process saved
        for name, mode in VARIANTS.items():
            results[name].append(in_new_process(mode, artifacts_path))


def median_iqr(values):
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{statistics.median(values):.2f} | {q3 - q1:.2f} | {len(values)}"


print("threads: 1")
print("| variant | Inductor import + ISA probe (s) | IQR (s) | runs | first step (s) | IQR (s) | runs "
      "| whole process (s) | IQR (s) | runs | FX graph cache hits |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, runs in results.items():
    start_up, first, hits, whole = zip(*runs, strict=True)
    print(f"| {name} | {median_iqr(start_up)} | {median_iqr(first)} | {median_iqr(whole)} | {min(hits)} |")
