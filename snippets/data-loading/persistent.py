import os

import torch
from torch.utils.data import DataLoader, Dataset


class WhoLoadedMe(Dataset):
    epoch = 0

    def __len__(self):
        return 8

    def __getitem__(self, index):
        return torch.tensor([os.getpid(), self.epoch])


if __name__ == "__main__":
    for persistent in (False, True):
        dataset = WhoLoadedMe()
        loader = DataLoader(dataset, batch_size=2, num_workers=2, persistent_workers=persistent)
        pids, seen = set(), []
        for epoch in range(3):
            dataset.epoch = epoch
            for batch in loader:
                pids.update(batch[:, 0].tolist())
            seen.append(batch[0, 1].item())
        print(f"persistent_workers={persistent}: 3 epochs used {len(pids)} worker processes")
        print(f"  main process set dataset.epoch = [0, 1, 2], the workers saw {seen}")
