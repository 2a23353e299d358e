# marks: cuda
# estimate: 30
# method: sequential -- each loader is timed over whole epochs, after a warm-up epoch that starts its workers and CUDA
import statistics
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

REPEATS = 5
data = TensorDataset(torch.randn(512, 3, 224, 224))


def epoch_ms(loader, non_blocking):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for (batch,) in loader:
        batch = batch.to("cuda", non_blocking=non_blocking)
        batch.mul_(2)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3


print("threads: 1 per process")
print("| variant | median epoch (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for pin_memory in (False, True):
    loader = DataLoader(data, batch_size=64, num_workers=2, pin_memory=pin_memory, persistent_workers=True)
    epoch_ms(loader, non_blocking=pin_memory)
    times = [epoch_ms(loader, non_blocking=pin_memory) for _ in range(REPEATS)]
    q1, _, q3 = statistics.quantiles(times, n=4)
    print(f"| pin_memory={pin_memory} | {statistics.median(times):.1f} | {q3 - q1:.1f} | {REPEATS} |")
