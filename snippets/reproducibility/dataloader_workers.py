import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class NoisyDataset(Dataset):
    def __init__(self):
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return 4

    def __getitem__(self, index):
        return round(float(self.rng.random()), 4)


def reseed_worker(worker_id):
    info = get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)


def epoch(worker_init_fn=None):
    loader = DataLoader(NoisyDataset(), batch_size=2, num_workers=2, worker_init_fn=worker_init_fn,
                        generator=torch.Generator().manual_seed(0))
    return [batch.tolist() for batch in loader]


class WorkerSeed(Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, index):
        return get_worker_info().seed


def seeds_change_between_epochs(persistent_workers):
    loader = DataLoader(WorkerSeed(), batch_size=1, num_workers=2, persistent_workers=persistent_workers,
                        generator=torch.Generator().manual_seed(0))
    first, second = ([batch.item() for batch in loader] for _ in range(2))
    return first != second


if __name__ == "__main__":
    print("without worker_init_fn:", epoch())
    print("with worker_init_fn:   ", epoch(reseed_worker))
    print("again, same seed:      ", epoch(reseed_worker))

    for persistent_workers in (False, True):
        print(f"persistent_workers={persistent_workers}: worker seeds change between epochs:",
              seeds_change_between_epochs(persistent_workers))

