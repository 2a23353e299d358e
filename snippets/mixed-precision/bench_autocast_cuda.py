# marks: cuda
# estimate: 30
# method: interleaved -- the three precisions share one model and alternate in rounds, so a GPU clock change hits all
import contextlib
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
torch.backends.cuda.matmul.fp32_precision = "ieee"  # the float32 baseline: no TF32
ROUNDS = 10
model = nn.Sequential(nn.Linear(4096, 16384), nn.GELU(), nn.Linear(16384, 4096)).cuda()
x = torch.randn(4096, 4096, device="cuda")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
scaler = torch.amp.GradScaler("cuda")


def train_step(context, scale):
    def step():
        model.zero_grad(set_to_none=True)
        with context():
            loss = model(x).float().pow(2).mean()
        if scale:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()
    return step


def forward(context, scale):
    def run():
        with torch.inference_mode(), context():
            model(x)
    return run


precisions = {
    "float32": (contextlib.nullcontext, False),
    "autocast float16 + GradScaler": (lambda: torch.autocast("cuda", dtype=torch.float16), True),
    "autocast bfloat16": (lambda: torch.autocast("cuda", dtype=torch.bfloat16), False),
}
columns = {"train step (ms)": train_step, "forward (ms)": forward}
timers = {(p, c): benchmark.Timer("f()", globals={"f": make(*spec)})
          for p, spec in precisions.items() for c, make in columns.items()}
samples = {key: [] for key in timers}
for _ in range(ROUNDS):
    for key, timer in timers.items():
        samples[key].append(timer.timeit(5).mean * 1e3)

print("float32 matmul precision:", torch.backends.cuda.matmul.fp32_precision)
print("threads: 1")
print("| variant | " + " | ".join(f"{col} | IQR (ms)" for col in columns) + " | runs |")
print("|---|" + "---:|---:|" * len(columns) + "---:|")
for p in precisions:
    cells = []
    for col in columns:
        q1, _, q3 = statistics.quantiles(samples[p, col], n=4)
        cells += [f"{statistics.median(samples[p, col]):.3f}", f"{q3 - q1:.3f}"]
    print(f"| {p} | {' | '.join(cells)} | {ROUNDS} |")
