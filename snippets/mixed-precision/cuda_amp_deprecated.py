# warns: FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated -- the page shows the deprecation
# warns: FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated -- the page shows the deprecation
import warnings

import torch
from torch import nn

model = nn.Linear(8, 1)
x = torch.randn(4, 8)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    scaler = torch.cuda.amp.GradScaler()
    with torch.cuda.amp.autocast():
        out = model(x)

for warning in caught:
    if issubclass(warning.category, FutureWarning):
        print(f"{warning.category.__name__}: {warning.message}")
