# marks: cuda
# estimate: 20
# method: interleaved -- the three copies into one GPU buffer alternate in rounds, so a busy PCIe link hits them all
import statistics

import torch
from torch.utils import benchmark

size_mib = 256
pageable = torch.randn(size_mib * 2**20 // 4)
pinned = pageable.pin_memory()
target = torch.empty_like(pageable, device="cuda")

copies = {
    "pageable": lambda: target.copy_(pageable),
    "pinned": lambda: target.copy_(pinned),
    "pinned, non_blocking": lambda: target.copy_(pinned, non_blocking=True),
}

ROUNDS = 10
timers = {name: benchmark.Timer("copy()", globals={"copy": copy}) for name, copy in copies.items()}
samples = {name: [] for name in copies}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(5).mean * 1e3)



def stats(values):
    q1, _, q3 = statistics.quantiles(values, n=4)
    return statistics.median(values), q3 - q1


print("threads: 1")
print("| variant | median (ms) | IQR (ms) | bandwidth (GB/s) | IQR (GB/s) | runs |")
print("|---|---:|---:|---:|---:|---:|")
for name, values in samples.items():
    (ms, ms_iqr), (gbs, gbs_iqr) = stats(values), stats([pageable.nbytes / v / 1e6 for v in values])
    print(f"| {name} | {ms:.3f} | {ms_iqr:.3f} | {gbs:.1f} | {gbs_iqr:.2f} | {ROUNDS} |")
