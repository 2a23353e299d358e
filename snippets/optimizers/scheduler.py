import warnings

import torch
from torch import nn


def learning_rates(scheduler_first):
    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    used = []
    for _ in range(3):
        optimizer.zero_grad()
        model(torch.randn(8, 4)).pow(2).mean().backward()
        if scheduler_first:
            scheduler.step()
        used.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        if not scheduler_first:
            scheduler.step()
    return used


print("optimizer.step(), then scheduler.step():", learning_rates(scheduler_first=False))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("scheduler.step(), then optimizer.step():", learning_rates(scheduler_first=True))
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
