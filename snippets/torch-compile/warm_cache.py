# marks: slow
# timeout: 240
import os
import subprocess
import sys
import tempfile
import time

import torch
from torch._dynamo.utils import compilation_time_metrics, counters

PHASES = {  # Dynamo's own timers (torch._dynamo.utils.compilation_time_metrics)
    "bytecode_tracing": "Dynamo tracing",
    "inductor_codecache_torch_key": "cache key",
    "fx_codegen_and_compile": "code generation and C++ compilation",
    "PyCodeCache.load_by_key_path": "loading the compiled code",
}


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def gelu_tanh_doubled(x):  # a second function of the same size, compiled in the same process
    return 2 * gelu_tanh(x)


def first_call(fn, x):
    before = {name: list(compilation_time_metrics.get(name, [])) for name in PHASES}
    hits, misses = counters["inductor"]["fxgraph_cache_hit"], counters["inductor"]["fxgraph_cache_miss"]
    start = time.perf_counter()
    torch.compile(fn)(x)
    total = time.perf_counter() - start
    ran = {name: compilation_time_metrics.get(name, [])[len(before[name]):] for name in PHASES}
    phases = {label: sum(ran[name]) for name, label in PHASES.items() if ran[name]}  # the phases that ran
    hit = counters["inductor"]["fxgraph_cache_hit"] > hits
    miss = counters["inductor"]["fxgraph_cache_miss"] > misses
    shown = ", ".join(f"{label} {seconds:.2f} s" for label, seconds in phases.items())
    print(f"  {fn.__name__}: first call {total:.2f} s; cache {'hit' if hit else 'miss' if miss else '?'}; {shown}")
    return total, phases


def inductor_start_up():
    """Import Inductor, then let it probe the CPU's vector ISA: both happen once per process (s)."""
    start = time.perf_counter()
    import torch._inductor.compile_fx  # noqa: F401
    from torch._inductor.cpu_vec_isa import pick_vec_isa

    imported = time.perf_counter()
    pick_vec_isa()  # builds (empty cache) or finds (warm cache) a test library per ISA, loads each in a subprocess
    probed = time.perf_counter()
    print(f"  before any compilation: importing Inductor {imported - start:.2f} s, "
          f"CPU vector-ISA probe {probed - imported:.2f} s")
    return probed - imported


if sys.argv[1:] == ["--child"]:  # what each new process below runs
    torch.set_num_threads(1)
    x = torch.randn(1024, 1024)
    inductor_start_up()  # otherwise it runs inside the first call's "loading" or "code generation" timer
    first_call(gelu_tanh, x)
    first_call(gelu_tanh_doubled, x)
    sys.exit()

with tempfile.TemporaryDirectory() as cache:
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
    for label in ("empty cache", "warm cache (the one the process before filled)"):
        print(f"new process, {label}:")
        child = [sys.executable, __file__, "--child"]
        done = subprocess.run(child, env=env, capture_output=True, text=True, check=True)
        print(done.stdout, end="")
