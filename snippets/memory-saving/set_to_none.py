import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

model(torch.randn(4, 3)).sum().backward()
optimizer.zero_grad(set_to_none=False)
print("set_to_none=False:", model.weight.grad)

model(torch.randn(4, 3)).sum().backward()
optimizer.zero_grad()
print("default (set_to_none=True):", model.weight.grad)

try:
    print(model.weight.grad.norm())
except AttributeError as error:
    print("AttributeError:", error)

momentum = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
model(torch.randn(4, 3)).sum().backward()
momentum.step()
for set_to_none in (False, True):
    momentum.zero_grad(set_to_none=set_to_none)
    before = model.weight.detach().clone()
    momentum.step()
    changed = not torch.equal(before, model.weight)
    print(f"SGD with momentum, step after zero_grad(set_to_none={set_to_none}): weight changed = {changed}")
