# marks: slow
# timeout: 120
# method: sequential -- each num_workers is timed over whole epochs, after a warm-up epoch that starts its workers
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
    for num_workers in (0, 1, 2, 4):
        loader = DataLoader(
            CpuBoundDataset(), batch_size=BATCH, num_workers=num_workers, persistent_workers=num_workers > 0
        )
        epoch_ms(loader)  # starts the workers
        times = [epoch_ms(loader) for _ in range(REPEATS)]
        q1, _, q3 = statistics.quantiles(times, n=4)
        print(f"| num_workers={num_workers} | {statistics.median(times):.1f} | {q3 - q1:.1f} | {REPEATS} |")
