# marks: cuda
# estimate: 30
# method: interleaved -- batches loaded once per loader, untimed; the three copy variants alternate in rounds
import statistics
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

REPEATS = 15
torch.manual_seed(0)
data = TensorDataset(torch.randn(512, 3, 224, 224))
pageable = [batch for (batch,) in DataLoader(data, batch_size=64)]
pinned = [batch for (batch,) in DataLoader(data, batch_size=64, pin_memory=True)]
print("batches pinned by the loader:", all(batch.is_pinned() for batch in pinned),
      "| without pin_memory:", any(batch.is_pinned() for batch in pageable))
weight = torch.randn(224, 224, device="cuda")


def epoch_ms(batches, non_blocking):
    """Copy each batch to the GPU and compute on it; return the epoch's time and the time the
    host took to issue it (before it waits for the GPU)."""
    torch.cuda.synchronize()
    start = time.perf_counter()
    for batch in batches:
        x = batch.to("cuda", non_blocking=non_blocking)
        for _ in range(4):
            x = torch.tanh(x @ weight)
    issued = time.perf_counter()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3, (issued - start) * 1e3


variants = {
    "pageable, .to()": (pageable, False),
    "pinned, .to()": (pinned, False),
    "pinned, .to(non_blocking=True)": (pinned, True),
}
for batches, non_blocking in variants.values():
    epoch_ms(batches, non_blocking)  # warm-up: CUDA context, kernels, the caching allocator
samples = {name: [] for name in variants}
for _ in range(REPEATS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, (batches, non_blocking) in variants.items():
        samples[name].append(epoch_ms(batches, non_blocking))


def median_iqr(values):
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.1f} | {q3 - q1:.1f}"


print("threads: 1 per process")
print("| variant | median epoch (ms) | IQR (ms) | host issue (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|---:|---:|")
for name, runs in samples.items():
    totals, issued = zip(*runs, strict=True)
    print(f"| {name} | {median_iqr(totals)} | {median_iqr(issued)} | {REPEATS} |")
