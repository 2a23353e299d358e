import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
inputs, targets = torch.randn(32, 10), torch.randn(32, 1)
loss_fn = nn.MSELoss()

loss_fn(model(inputs), targets).backward()
full_batch = [p.grad.clone() for p in model.parameters()]
model.zero_grad()

steps = 4
for micro_inputs, micro_targets in zip(inputs.chunk(steps), targets.chunk(steps), strict=True):
    loss = loss_fn(model(micro_inputs), micro_targets) / steps
    loss.backward()
accumulated = [p.grad for p in model.parameters()]

largest = max((a - b).abs().max().item() for a, b in zip(full_batch, accumulated, strict=True))
print("micro-batches:", steps, "of", len(inputs) // steps, "samples")
print("same gradient as one batch of 32:", largest < 1e-6)
