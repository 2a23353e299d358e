import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.arange(8.0))

for options in ({"prefetch_factor": 4}, {"persistent_workers": True}, {"multiprocessing_context": "spawn"}):
    try:
        DataLoader(data, num_workers=0, **options)
    except ValueError as error:
        print("ValueError:", error)

calls = []
list(DataLoader(data, num_workers=0, worker_init_fn=calls.append))
print("worker_init_fn calls without workers:", len(calls))

loader = DataLoader(data, num_workers=0, timeout=5)
try:
    next(iter(loader))
except AssertionError as error:
    print("AssertionError:", error)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (batch,) = next(iter(DataLoader(data, batch_size=4, pin_memory=True)))
print("UserWarning:", caught[0].message)
print("batch is pinned:", batch.is_pinned())
