# marks: slow
# timeout: 120
# method: interleaved -- the two loaders alternate epoch by epoch; each epoch is timed whole, start-up included
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


def epoch_ms(loader):
    start = time.perf_counter()
    for _batch in loader:
        pass
    return (time.perf_counter() - start) * 1e3


print("threads: 1 per process (the main process only collects batches)")
print("| variant | median epoch (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
loaders = {
    f"persistent_workers={persistent}": DataLoader(
        SlowDataset(), batch_size=BATCH, num_workers=2, persistent_workers=persistent
    )
    for persistent in (False, True)
}
for loader in loaders.values():
    epoch_ms(loader)  # the persistent loader starts its workers
names = list(loaders)
times = {name: [] for name in names}
for round_ in range(REPEATS):  # one epoch of each per round, the order alternating
    for name in names[round_ % 2:] + names[:round_ % 2]:
        times[name].append(epoch_ms(loaders[name]))
for name in names:
    q1, _, q3 = statistics.quantiles(times[name], n=4)
    print(f"| {name} | {statistics.median(times[name]):.1f} | {q3 - q1:.1f} | {REPEATS} |")
