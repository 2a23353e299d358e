import os

import torch
from torch.utils.data import DataLoader, Dataset


class WhoLoadedMe(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, index):
        return torch.tensor(os.getpid())


for persistent in (False, True):
    loader = DataLoader(WhoLoadedMe(), batch_size=2, num_workers=2, persistent_workers=persistent)
    pids = set()
    for _epoch in range(3):
        for batch in loader:
            pids.update(batch.tolist())
    print(f"persistent_workers={persistent}: 3 epochs used {len(pids)} worker processes")
