# marks: slow
# timeout: 120
import statistics
import time
import warnings

import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES, BATCH, REPEATS = 128, 16, 3


class SlowDataset(Dataset):
    """Each item waits 2 ms, like a read from disk or network: the CPU is idle meanwhile."""

    def __len__(self):
        return SAMPLES

    def __getitem__(self, index):
        time.sleep(0.002)
        return torch.full((64,), float(index))


def epoch_seconds(loader):
    start = time.perf_counter()
    for _batch in loader:
        pass
    return time.perf_counter() - start


print("| variant | median epoch (ms) | throughput (samples/s) |")
print("|---|---|---|")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    for num_workers in (0, 1, 2, 4, 8):
        loader = DataLoader(
            SlowDataset(), batch_size=BATCH, num_workers=num_workers, persistent_workers=num_workers > 0
        )
        epoch_seconds(loader)
        median = statistics.median(epoch_seconds(loader) for _ in range(REPEATS))
        print(f"| num_workers={num_workers} | {median * 1e3:.0f} | {SAMPLES / median:.0f} |")
