# marks: slow
# timeout: 120
# method: sequential -- each loader is timed over whole epochs, so restarting workers every epoch is in the time
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
for persistent in (False, True):
    loader = DataLoader(SlowDataset(), batch_size=BATCH, num_workers=2, persistent_workers=persistent)
    epoch_ms(loader)  # starts the workers
    times = [epoch_ms(loader) for _ in range(REPEATS)]
    q1, _, q3 = statistics.quantiles(times, n=4)
    print(f"| persistent_workers={persistent} | {statistics.median(times):.1f} | {q3 - q1:.1f} | {REPEATS} |")
