# warns: DeprecationWarning: `torch.jit.trace` is deprecated -- the page shows the deprecation
# warns: DeprecationWarning: `torch.jit.trace_method` is deprecated -- the same trace, through trace_method
# warns: DeprecationWarning: `torch.jit.script` is deprecated -- the page shows the deprecation
# warns: DeprecationWarning: `torch.jit.save` is deprecated -- the page shows the deprecation
# warns: DeprecationWarning: `torch.jit.load` is deprecated -- the page shows the deprecation
import warnings

import torch
from torch import nn


class Gate(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return -x


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    traced = torch.jit.trace(Gate(), torch.ones(3))
    scripted = torch.jit.script(Gate())
    torch.jit.save(scripted, "gate.pt")
    loaded = torch.jit.load("gate.pt")
for message in dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught):
    print(message)

x = -torch.ones(3)
print("eager:", Gate()(x).tolist())
print("traced:", traced(x).tolist())
print("scripted, saved and loaded:", loaded(x).tolist())
