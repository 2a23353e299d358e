# warns: UserWarning: use_reentrant parameter should be passed explicitly -- the page shows the warning
import warnings

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
layer = nn.Linear(4, 4)
x = torch.randn(2, 4)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = checkpoint(layer, x)
for message in dict.fromkeys(str(w.message) for w in caught):
    print("UserWarning:", message)
print(f"torch {torch.__version__.split('+')[0]}: checkpoint without use_reentrant returned, no exception raised")

print("output requires grad (default, reentrant):", out.requires_grad)
try:
    out.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

checkpoint(layer, x, use_reentrant=False).sum().backward()
print("weight.grad after use_reentrant=False:", layer.weight.grad is not None)
