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
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict

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
            model_state, optimizer_state = get_state_dict(model, optimizer)
            state = {"model": model_state, "optimizer": optimizer_state}
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
        # get_state_dict creates AdamW's moments (as zeros), so that dcp.load has keys to load them into
        model_state, optimizer_state = get_state_dict(model, optimizer)
        state = {"model": model_state, "optimizer": optimizer_state}
        dcp.load(state, checkpoint_id=Path(folder) / f"step_{done:04d}")
        set_state_dict(model, optimizer, model_state_dict=state["model"], optim_state_dict=state["optimizer"])
        assert all(optimizer.state[p]["exp_avg"].any() for p in model.parameters()), "the moments were not loaded"
    train(model, optimizer, CRASH_AT - done, 0, folder, x, y)
    return CRASH_AT - done, (time.perf_counter() - start) * 1e3


x, y = torch.randn(64, 256), torch.randn(64, 256)
variants = {"no checkpoints": (0, False), "every 10 steps": (10, False), "every 10 steps, async_save": (10, True),
            "every 2 steps": (2, False), "every 2 steps, async_save": (2, True)}
samples = {name: {"run": [], "in save calls": [], "waiting": [], "recovery": []} for name in variants}
for round_ in range(1 + REPEATS):  # round 0 warms up (first saves, loads and planner set-up) and is not kept
    for name, (every, asynchronous) in variants.items():
        with tempfile.TemporaryDirectory() as folder:
            model, optimizer = build()
            start = time.perf_counter()
            in_saving, waiting = train(model, optimizer, STEPS, every, folder, x, y, asynchronous)
            run_ms = (time.perf_counter() - start) * 1e3
            _, recovery_ms = recover(every, folder, x, y)
        if round_:
            for key, ms in zip(samples[name], (run_ms, in_saving, waiting, recovery_ms), strict=True):
                samples[name][key].append(ms)


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
    kept = samples[name]
    cells = [median_iqr(kept["run"]), REPEATS, checkpoints, median_iqr(kept["in save calls"]),
             median_iqr(kept["waiting"]), redone, median_iqr(kept["recovery"])]
    print(f"| {name} | " + " | ".join(map(str, cells)) + " |")
