import copy

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 1))
reference = copy.deepcopy(model)
x, y = torch.randn(16, 8), torch.randn(16, 1)

optimizers = {p: torch.optim.SGD([p], lr=0.1) for p in model.parameters()}
alive = []


def step_now(param):
    alive.append(sum(p.grad is not None for p in model.parameters()))
    optimizers[param].step()
    optimizers[param].zero_grad()


for p in model.parameters():
    p.register_post_accumulate_grad_hook(step_now)
nn.functional.mse_loss(model(x), y).backward()
print("gradients alive as each hook ran:", alive)
print("gradients alive after backward:", sum(p.grad is not None for p in model.parameters()))

optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
nn.functional.mse_loss(reference(x), y).backward()
print("plain step: gradients alive after backward:", sum(p.grad is not None for p in reference.parameters()))
optimizer.step()
same = all(torch.equal(a, b) for a, b in zip(model.parameters(), reference.parameters(), strict=True))
print("same weights as the plain step:", same)
