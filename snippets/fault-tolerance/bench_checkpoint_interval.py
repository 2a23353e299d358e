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


def train(model, optimizer, steps, every, folder, x, y, asynchronous=False):
    """Train, saving every `every` steps; return the ms the loop spent in saving, and of those, waiting for
    the previous asynchronous save to finish writing."""
    blocked, waited, in_flight = 0.0, 0.0, None
    for step in range(1, steps + 1):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()
        if every and step % every == 0:
            start = time.perf_counter()
            state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
            checkpoint_id = Path(folder) / f"step_{step:04d}"
            if asynchronous:
                if in_flight is not None:  # one save in flight at a time
                    wait = time.perf_counter()
                    in_flight.result()
                    waited += time.perf_counter() - wait
                in_flight = dcp.async_save(state, checkpoint_id=checkpoint_id)
            else:
                dcp.save(state, checkpoint_id=checkpoint_id)
            blocked += time.perf_counter() - start
    if in_flight is not None:
        start = time.perf_counter()
        in_flight.result()
        blocked += time.perf_counter() - start
        waited += time.perf_counter() - start
    return blocked * 1e3, waited * 1e3


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
variants = {"no checkpoints": (0, False), "every 10 steps": (10, False), "every 10 steps, async_save": (10, True),
            "every 2 steps": (2, False), "every 2 steps, async_save": (2, True)}
runs = {name: [] for name in variants}
blocked = {name: [] for name in variants}
waited = {name: [] for name in variants}
recoveries = {name: [] for name in variants}
for _ in range(REPEATS):
    for name, (every, asynchronous) in variants.items():
        with tempfile.TemporaryDirectory() as folder:
            model, optimizer = build()
            start = time.perf_counter()
            in_saving, waiting = train(model, optimizer, STEPS, every, folder, x, y, asynchronous)
            runs[name].append((time.perf_counter() - start) * 1e3)
            blocked[name].append(in_saving)
            waited[name].append(waiting)
            redone, ms = recover(every, folder, x, y)
            recoveries[name].append(ms)


def median_iqr(samples):
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return f"{median:.2f} | {q3 - q1:.2f}"


print("threads: 1")
print(f"| variant | {STEPS} steps (ms) | IQR (ms) | runs | checkpoints | in save calls (ms) | IQR (ms) "
      "| waiting for a write (ms) | IQR (ms) "
      f"| steps redone after a crash at step {CRASH_AT} | recovery (ms) | IQR (ms) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, (every, _) in variants.items():
    redone = CRASH_AT - (CRASH_AT // every * every if every else 0)
    checkpoints = STEPS // every if every else 0
    cells = [median_iqr(runs[name]), REPEATS, checkpoints, median_iqr(blocked[name]), median_iqr(waited[name]), redone,
             median_iqr(recoveries[name])]
    print(f"| {name} | " + " | ".join(map(str, cells)) + " |")
