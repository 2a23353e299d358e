# marks: cuda
# estimate: 15
# method: sequential -- each way of timing measures 20 matmuls of its own, after the GPU has been warmed up
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
for name, measure in [("perf_counter, no sync", naive), ("perf_counter + synchronize()", synchronized),
                      ("CUDA events", cuda_events)]:
    samples = [measure() for _ in range(ROUNDS)]
    torch.cuda.synchronize()
    q1, _, q3 = statistics.quantiles(samples, n=4)
    print(f"| {name} | {statistics.median(samples):.4g} | {q3 - q1:.4g} | {ROUNDS} |")
