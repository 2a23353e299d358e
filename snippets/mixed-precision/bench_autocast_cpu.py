import contextlib
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 2048), nn.GELU(), nn.Linear(2048, 512))
optimizer = torch.optim.SGD(model.parameters(), lr=1e-6)
x = torch.randn(64, 512)


def train_step(context):
    def step():
        model.zero_grad(set_to_none=True)
        with context():
            loss = model(x).float().pow(2).mean()
        loss.backward()
        optimizer.step()
    return step


def forward(context):
    def run():
        with torch.inference_mode(), context():
            model(x)
    return run


precisions = {
    "float32": contextlib.nullcontext,
    "autocast bfloat16": lambda: torch.autocast("cpu", dtype=torch.bfloat16),
}
columns = {"train step (ms)": train_step, "forward (ms)": forward}
timers = {(p, c): benchmark.Timer("f()", globals={"f": make(ctx)})
          for p, ctx in precisions.items() for c, make in columns.items()}
samples = {key: [] for key in timers}
for _ in range(5):
    for key, timer in timers.items():
        samples[key].append(timer.timeit(3).median)

print("| variant | " + " | ".join(columns) + " |")
print("|---|" + "---:|" * len(columns))
for p in precisions:
    cells = " | ".join(f"{statistics.median(samples[p, c]) * 1e3:.2f}" for c in columns)
    print(f"| {p} | {cells} |")
