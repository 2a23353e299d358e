from collections import Counter

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function

PHASES = ("forward", "backward", "optimizer step")

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def train_step(x, y):
    with record_function("forward"):
        loss = nn.functional.mse_loss(model(x), y)
    with record_function("backward"):
        loss.backward()
    with record_function("optimizer step"):
        optimizer.step()
        optimizer.zero_grad()


def phase_of(event):
    while event is not None and event.name not in PHASES:
        event = event.cpu_parent
    return event.name if event is not None else None


def operators_per_step(batch):
    x, y = torch.randn(batch, 64), torch.randn(batch, 1)
    train_step(x, y)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        train_step(x, y)
    return Counter(phase_of(event) for event in prof.events() if event.name.startswith("aten::"))


for batch in (8, 8192):
    counts = operators_per_step(batch)
    phases = ", ".join(f"{phase} {counts[phase]}" for phase in PHASES)
    print(f"batch {batch:>4}: {phases} | total {counts.total()}")


def optimizer_operators(foreach):
    sgd = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, foreach=foreach)
    model(torch.randn(8, 64)).sum().backward()
    sgd.step()
    sgd.zero_grad()
    model(torch.randn(8, 64)).sum().backward()
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        sgd.step()
    dispatched = [event for event in prof.events() if event.name.startswith("aten::")]
    called = Counter(event.name for event in dispatched
                     if not (event.cpu_parent and event.cpu_parent.name.startswith("aten::")))
    return called, len(dispatched)


for label, foreach in (("foreach=None (the default), CPU tensors", None), ("foreach=True, CPU tensors", True)):
    called, dispatched = optimizer_operators(foreach)
    listed = ", ".join(f"{name} {count}" for name, count in sorted(called.items()))
    print(f"SGD step, {label}: {called.total()} operators called by the optimizer ({listed}), "
          f"{dispatched} dispatched with their nested calls")
