# marks: slow
# timeout: 120
# method: interleaved -- 1 and 2 threads alternate in rounds, so another process's load hits both thread counts
import statistics

import torch
from torch.utils import benchmark

torch.manual_seed(0)
x = torch.randn(512, 512)
ROUNDS = 15

timers = {n: benchmark.Timer("x @ x", globals={"x": x}, num_threads=n) for n in (1, 2)}
samples = {n: [] for n in timers}
for _ in range(ROUNDS):
    for n, timer in timers.items():
        samples[n].append(timer.timeit(20).mean * 1e6)

print("| variant | threads | median (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|---:|")
for n, values in samples.items():
    q1, _, q3 = statistics.quantiles(values, n=4)
    print(f"| num_threads={n} | {n} | {statistics.median(values):.0f} | {q3 - q1:.0f} | {ROUNDS} |")
