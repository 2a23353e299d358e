# marks: cuda
import statistics
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

REPEATS = 5
data = TensorDataset(torch.randn(512, 3, 224, 224))


def epoch_seconds(loader, non_blocking):
    torch.cuda.synchronize()
    start = time.perf_counter()
    for (batch,) in loader:
        batch = batch.to("cuda", non_blocking=non_blocking)
        batch.mul_(2)
    torch.cuda.synchronize()
    return time.perf_counter() - start


print("| variant | median epoch (ms) | throughput (GB/s) |")
print("|---|---|---|")
gigabytes = data.tensors[0].nbytes / 1e9
for pin_memory in (False, True):
    loader = DataLoader(data, batch_size=64, num_workers=2, pin_memory=pin_memory, persistent_workers=True)
    epoch_seconds(loader, non_blocking=pin_memory)
    median = statistics.median(epoch_seconds(loader, non_blocking=pin_memory) for _ in range(REPEATS))
    print(f"| pin_memory={pin_memory} | {median * 1e3:.0f} | {gigabytes / median:.1f} |")
