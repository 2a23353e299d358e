import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.arange(8.0))

for options in ({"prefetch_factor": 4}, {"persistent_workers": True}):
    try:
        DataLoader(data, num_workers=0, **options)
    except ValueError as error:
        print("ValueError:", error)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (batch,) = next(iter(DataLoader(data, batch_size=4, pin_memory=True)))
print("UserWarning:", caught[0].message)
print("batch is pinned:", batch.is_pinned())
