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

optimizers = {
    "SGD with momentum": lambda params: torch.optim.SGD(params, lr=0.1, momentum=0.9),
    "SGD with weight_decay": lambda params: torch.optim.SGD(params, lr=0.1, weight_decay=0.1),
    "Adam": lambda params: torch.optim.Adam(params, lr=0.1),
}
for name, make in optimizers.items():
    for set_to_none in (False, True):
        optimizer = make(model.parameters())
        model(torch.randn(4, 3)).sum().backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=set_to_none)
        before = model.weight.detach().clone()
        optimizer.step()
        changed = not torch.equal(before, model.weight)
        print(f"{name}, step after zero_grad(set_to_none={set_to_none}): weight changed = {changed}")
