# marks: cuda
# estimate: 15
# method: interleaved -- the three ways of timing alternate in rounds, one matmul each, after the GPU has been warmed up
import statistics
import time

import torch

a = torch.randn(8192, 8192, device="cuda")
b = torch.randn(8192, 8192, device="cuda")
for _ in range(3):
    a @ b
torch.cuda.synchronize()


def naive():
    start = time.perf_counter()
    a @ b
    return (time.perf_counter() - start) * 1e3


def synchronized():
    torch.cuda.synchronize()
    start = time.perf_counter()
    a @ b
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3


def cuda_events():
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    a @ b
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


ROUNDS = 20
torch.set_num_threads(1)
print(f"threads: {torch.get_num_threads()}")
print("| variant | median (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
ways = {"perf_counter, no sync": naive, "perf_counter + synchronize()": synchronized, "CUDA events": cuda_events}
samples = {name: [] for name in ways}
for _ in range(ROUNDS):
    for name, measure in ways.items():
        samples[name].append(measure())
        torch.cuda.synchronize()  # the next way starts on an idle GPU
for name, values in samples.items():
    q1, _, q3 = statistics.quantiles(values, n=4)
    print(f"| {name} | {statistics.median(values):.4g} | {q3 - q1:.4g} | {ROUNDS} |")
