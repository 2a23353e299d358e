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
    """The epoch's time and, within it, the wait for its first batch."""
    start = time.perf_counter()
    first = None
    for batch in loader:
        if first is None:
            first = time.perf_counter() - start
        training_step(batch)
    return (time.perf_counter() - start) * 1e3, first * 1e3


def median_iqr(values):
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.1f} | {q3 - q1:.1f}"


def report(variant, epochs):
    totals, firsts = zip(*epochs, strict=True)
    print(f"| {variant} | {median_iqr(totals)} | {median_iqr(firsts)} | {REPEATS} |")


print("threads: 1 (the stand-in step is one busy thread)")
print("| variant | median epoch (ms) | IQR (ms) | first batch (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|---:|---:|")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    for num_workers in (0, 1, 2, 4, 8):
        loader = DataLoader(
            SlowDataset(), batch_size=BATCH, num_workers=num_workers, persistent_workers=num_workers > 0
        )
        epoch_ms(loader)  # starts the workers
        report(f"num_workers={num_workers}", [epoch_ms(loader) for _ in range(REPEATS)])
    preloaded = list(DataLoader(SlowDataset(), batch_size=BATCH))
    report("steps only (batches preloaded)", [epoch_ms(preloaded) for _ in range(REPEATS)])
