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



def same_as_full_batch(grads):
    return max((a - b).abs().max().item() for a, b in zip(full_batch, grads, strict=True)) < 1e-6


print("micro-batches:", steps, "of", len(inputs) // steps, "samples")
print("same gradient as one batch of 32:", same_as_full_batch(accumulated))

uneven = list(zip(inputs.split(12), targets.split(12), strict=True))
print("uneven micro-batches:", [len(micro_inputs) for micro_inputs, _ in uneven], "samples")
sum_fn = nn.MSELoss(reduction="sum")
for name, scaled_loss in {
    f"mean loss / {len(uneven)}": lambda out, target: loss_fn(out, target) / len(uneven),
    f"summed loss / {len(inputs)}": lambda out, target: sum_fn(out, target) / len(inputs),
}.items():
    model.zero_grad()
    for micro_inputs, micro_targets in uneven:
        scaled_loss(model(micro_inputs), micro_targets).backward()
    print(f"{name}: same gradient as one batch of 32:", same_as_full_batch([p.grad for p in model.parameters()]))
