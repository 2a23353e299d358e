# marks: slow
# timeout: 120
# method: interleaved -- all loaders live at once (idle workers wait), one epoch of each per round, rotated
import statistics
import time
import warnings

import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES, BATCH, REPEATS = 128, 16, 5


class CpuBoundDataset(Dataset):
    """Each item keeps one core busy for about 2 ms, like decoding or augmenting an image."""

    def __len__(self):
        return SAMPLES

    def __getitem__(self, index):
        deadline = time.process_time() + 0.002
        while time.process_time() < deadline:
            pass
        return torch.full((64,), float(index))


def epoch_ms(loader):
    start = time.perf_counter()
    for _batch in loader:
        pass
    return (time.perf_counter() - start) * 1e3


print("threads: 1 per process (the main process only collects batches)")
print("| variant | median epoch (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    loaders = {
        f"num_workers={n}": DataLoader(CpuBoundDataset(), batch_size=BATCH, num_workers=n, persistent_workers=n > 0)
        for n in (0, 1, 2, 4)
    }
    for loader in loaders.values():
        epoch_ms(loader)  # starts the workers
    names = list(loaders)
    times = {name: [] for name in names}
    for round_ in range(REPEATS):  # one epoch of each variant per round, so that a slow moment hits all of them
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:
            times[name].append(epoch_ms(loaders[name]))
for name in names:
    q1, _, q3 = statistics.quantiles(times[name], n=4)
    print(f"| {name} | {statistics.median(times[name]):.1f} | {q3 - q1:.1f} | {REPEATS} |")
