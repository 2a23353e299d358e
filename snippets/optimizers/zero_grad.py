import torch
from torch import nn


def two_steps(set_to_none):
    """Step 1 uses both layers; step 2 uses only the first. Does step 2 move the second?"""
    torch.manual_seed(0)
    first, second = nn.Linear(512, 512), nn.Linear(512, 512)
    optimizer = torch.optim.AdamW([*first.parameters(), *second.parameters()], lr=0.1)
    for uses_second in (True, False):
        optimizer.zero_grad(set_to_none=set_to_none)
        hidden = first(torch.randn(8, 512))
        (second(hidden) if uses_second else hidden).sum().backward()
        before = second.weight.detach().clone()
        optimizer.step()
    optimizer.zero_grad(set_to_none=set_to_none)
    held = sum(p.grad.nbytes for p in optimizer.param_groups[0]["params"] if p.grad is not None) / 2**20
    return held, first.weight.grad is None, not torch.equal(before, second.weight)


for set_to_none in (False, True):
    held, is_none, moved = two_steps(set_to_none)
    print(f"zero_grad(set_to_none={set_to_none}): gradients held between steps {held:.2f} MiB, "
          f".grad is None: {is_none}, unused layer updated by step 2: {moved}")
