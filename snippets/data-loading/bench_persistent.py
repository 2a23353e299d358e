# marks: slow
# timeout: 120
import statistics
import time

import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES, BATCH, REPEATS = 64, 16, 5


class SlowDataset(Dataset):
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


print("| variant | median epoch (ms) |")
print("|---|---|")
for persistent in (False, True):
    loader = DataLoader(SlowDataset(), batch_size=BATCH, num_workers=2, persistent_workers=persistent)
    epoch_seconds(loader)
    median = statistics.median(epoch_seconds(loader) for _ in range(REPEATS))
    print(f"| persistent_workers={persistent} | {median * 1e3:.1f} |")
