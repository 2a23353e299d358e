# marks: slow
# timeout: 600
# method: processes -- each compiled variant gets a new process and empty inductor cache; eager runs in the parent
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

WIDTH, DEPTH, ROUNDS = 64, 12, 10


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(WIDTH)
        self.up, self.down = nn.Linear(WIDTH, 2 * WIDTH), nn.Linear(2 * WIDTH, WIDTH)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(Block() for _ in range(DEPTH))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def build(variant):
    torch.manual_seed(0)
    model = Model()
    if variant == "whole model compiled":
        model.compile()
    elif variant == "each block compiled":
        for block in model.blocks:
            block.compile()
    return model


def first_and_steady(variant):
    """The first call's time (ms), then steady-state times (us) of later calls."""
    if variant != "eager":  # pay the process's one-time costs (imports, compiler workers) before timing
        torch.compile(torch.sin)(torch.ones(1))
    model, x = build(variant), torch.randn(64, WIDTH)
    with torch.no_grad():
        start = time.perf_counter()
        model(x)
        first = (time.perf_counter() - start) * 1e3
        timer = benchmark.Timer("model(x)", globals={"model": model, "x": x})  # one thread, like the first call
        return first, [timer.timeit(10).mean * 1e6 for _ in range(ROUNDS)]


torch.set_num_threads(1)
if sys.argv[1:2] == ["--variant"]:  # what each new process below runs
    print(json.dumps(first_and_steady(sys.argv[2])))
    sys.exit()


def in_new_process(variant):
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, __file__, "--variant", variant], env=env, capture_output=True,
                              text=True, check=True)
    return json.loads(done.stdout)


rows = {"eager": first_and_steady("eager")}
rows.update((variant, in_new_process(variant)) for variant in ("whole model compiled", "each block compiled"))

print("threads: 1")
print("| variant | first call (ms) | IQR (ms) | runs | steady state (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, (first, steady) in rows.items():
    q1, _, q3 = statistics.quantiles(steady, n=4)
    print(f"| {name} | {first:.1f} | — | 1 | {statistics.median(steady):.1f} | {q3 - q1:.1f} | {ROUNDS} |")
