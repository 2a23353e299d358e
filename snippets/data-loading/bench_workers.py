# marks: slow
# timeout: 120
import statistics
import time
import warnings

import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES, BATCH, REPEATS, STEP_S = 128, 16, 5, 0.02


class SlowDataset(Dataset):
    """Each item waits 2 ms, like a read from disk or network: the CPU is idle meanwhile."""

    def __len__(self):
        return SAMPLES

    def __getitem__(self, index):
        time.sleep(0.002)
        return torch.full((64,), float(index))


def training_step(batch):
    """Stands in for forward, backward and optimizer step: keeps this process busy for 20 ms."""
    deadline = time.process_time() + STEP_S
    while time.process_time() < deadline:
        pass


def epoch_ms(loader):
    start = time.perf_counter()
    for batch in loader:
        training_step(batch)
    return (time.perf_counter() - start) * 1e3


print("threads: 1 (the stand-in step is one busy thread)")
print("| variant | median epoch (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    for num_workers in (0, 1, 2, 4, 8):
        loader = DataLoader(
            SlowDataset(), batch_size=BATCH, num_workers=num_workers, persistent_workers=num_workers > 0
        )
        epoch_ms(loader)  # starts the workers
        times = [epoch_ms(loader) for _ in range(REPEATS)]
        q1, _, q3 = statistics.quantiles(times, n=4)
        print(f"| num_workers={num_workers} | {statistics.median(times):.1f} | {q3 - q1:.1f} | {REPEATS} |")
