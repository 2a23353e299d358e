# marks: slow
# timeout: 300
# method: interleaved -- train step and forward of every precision alternate in rounds, so a slow moment hits them all
import contextlib
import copy
import resource
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
THREADS, ROUNDS, CALLS = torch.get_num_threads(), 15, 3
WARMUP = max(CALLS // 100, 2)  # untimed calls Timer.timeit makes before the CALLS it times
model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512))
x = torch.randn(64, 512)
models = {"float32": model, "autocast bfloat16": model, "bfloat16 weights": copy.deepcopy(model).bfloat16()}
inputs = {"float32": x, "autocast bfloat16": x, "bfloat16 weights": x.bfloat16()}
contexts = {
    "float32": contextlib.nullcontext,
    "autocast bfloat16": lambda: torch.autocast("cpu", dtype=torch.bfloat16),
    "bfloat16 weights": contextlib.nullcontext,
}


def train_step(name):
    net, inp, context = models[name], inputs[name], contexts[name]
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-6)

    def step():
        net.zero_grad(set_to_none=True)
        with context():
            loss = net(inp).float().pow(2).mean()
        loss.backward()
        optimizer.step()
    return step


def forward(name):
    net, inp, context = models[name], inputs[name], contexts[name]

    def run():
        with torch.inference_mode(), context():
            net(inp)
    return run


def minor_faults():  # pages the kernel mapped in on first touch (no disk read): fresh memory
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def counted(step, faults):  # one count per call, so that the timed calls can be told from the warm-up
    def call():
        before = minor_faults()
        step()
        faults.append(minor_faults() - before)
    return call


call_faults = {name: [] for name in models}
columns = {"train step (ms)": lambda name: counted(train_step(name), call_faults[name]), "forward (ms)": forward}
timers = {(name, col): benchmark.Timer("f()", globals={"f": make(name)}, num_threads=THREADS)
          for name in models for col, make in columns.items()}
samples = {key: [] for key in timers}
train_faults = dict.fromkeys(models, 0)
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for (name, col), timer in timers.items():
        samples[name, col].append(timer.timeit(CALLS).mean * 1e3)
        if col == "train step (ms)":
            faults = call_faults[name]
            assert len(faults) == WARMUP + CALLS, f"Timer.timeit made {len(faults)} calls, not {WARMUP} + {CALLS}"
            train_faults[name] += sum(faults[WARMUP:])
            faults.clear()

print(f"threads: {THREADS}")
print("| variant | " + " | ".join(f"{col} | IQR (ms)" for col in columns) + " | page faults per train step | runs |")
print("|---|" + "---:|---:|" * len(columns) + "---:|---:|")
for name in models:
    cells = []
    for col in columns:
        q1, _, q3 = statistics.quantiles(samples[name, col], n=4)
        cells += [f"{statistics.median(samples[name, col]):.3f}", f"{q3 - q1:.3f}"]
    cells.append(f"{train_faults[name] / (ROUNDS * CALLS):.0f}")
    print(f"| {name} | {' | '.join(cells)} | {ROUNDS} |")
