# marks: slow
# timeout: 180
import time

import torch
from torch import nn


def model_and_optimizer():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.Linear(64, 64))
    model(torch.randn(8, 64)).sum().backward()
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3)


eager_model, eager_optimizer = model_and_optimizer()
model, optimizer = model_and_optimizer()


@torch.compile
def compiled_step():
    optimizer.step()


for call in range(1, 4):
    start = time.perf_counter()
    compiled_step()
    compiled = time.perf_counter() - start
    start = time.perf_counter()
    eager_optimizer.step()  # the baseline: the same step, not compiled
    print(f"call {call}: compiled step {compiled:.3f} s, eager step {time.perf_counter() - start:.3f} s")
difference = max((a - b).abs().max().item() for a, b in zip(model.parameters(), eager_model.parameters(), strict=True))
print("parameters equal to three eager steps within 1e-6:", difference < 1e-6)
