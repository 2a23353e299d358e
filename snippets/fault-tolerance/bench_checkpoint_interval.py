# marks: slow
# timeout: 120
# method: interleaved -- each round trains every interval from scratch into a fresh folder, so a slow disk hits all
import statistics
import tempfile
import time
from pathlib import Path

import torch
import torch.distributed.checkpoint as dcp
from torch import nn

STEPS, CRASH_AT, REPEATS = 40, 39, 5
torch.set_num_threads(1)


def build():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256))
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3)


def train(model, optimizer, steps, every, folder, x, y):
    for step in range(1, steps + 1):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        if every and step % every == 0:
            dcp.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()},
                     checkpoint_id=Path(folder) / f"step_{step:04d}")


def recover(every, folder, x, y):
    """After a crash at CRASH_AT: load the latest checkpoint and train back up to CRASH_AT; (steps redone, ms)."""
    start = time.perf_counter()
    model, optimizer = build()
    done = CRASH_AT // every * every if every else 0
    if done:
        state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
        dcp.load(state, checkpoint_id=Path(folder) / f"step_{done:04d}")
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
    train(model, optimizer, CRASH_AT - done, 0, folder, x, y)
    return CRASH_AT - done, (time.perf_counter() - start) * 1e3


x, y = torch.randn(64, 256), torch.randn(64, 256)
variants = {"no checkpoints": 0, "every 10 steps": 10, "every 2 steps": 2}
runs = {name: [] for name in variants}
recoveries = {name: [] for name in variants}
for _ in range(REPEATS):
    for name, every in variants.items():
        with tempfile.TemporaryDirectory() as folder:
            model, optimizer = build()
            start = time.perf_counter()
            train(model, optimizer, STEPS, every, folder, x, y)
            runs[name].append((time.perf_counter() - start) * 1e3)
            redone, ms = recover(every, folder, x, y)
            recoveries[name].append(ms)


def median_iqr(samples):
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return f"{median:.2f} | {q3 - q1:.2f}"


print("threads: 1")
print(f"| variant | {STEPS} steps (ms) | IQR (ms) | runs | checkpoints | steps redone after a crash at step {CRASH_AT} "
      "| recovery (ms) | IQR (ms) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for name, every in variants.items():
    redone = CRASH_AT - (CRASH_AT // every * every if every else 0)
    checkpoints = STEPS // every if every else 0
    recovery = median_iqr(recoveries[name])
    print(f"| {name} | {median_iqr(runs[name])} | {REPEATS} | {checkpoints} | {redone} | {recovery} |")
