# timeout: 180
# depends: isa -- the instruction sets decide whether "medium" reaches oneDNN and computes in bfloat16 (AMX)
# method: interleaved -- each run sets its own precision, so the variants alternate in rounds; errors are taken once
import statistics
import time

import torch

torch.manual_seed(0)
THREADS, ROUNDS, N = torch.get_num_threads(), 10, 1024
a, b = torch.randn(2, N, N).unbind(0)
exact = a.double() @ b.double()
variants = {  # name: (float32 matmul precision, dtype the operands are rounded to, dtype of the product)
    "float32, highest": ("highest", torch.float32, torch.float32),
    "float32, medium": ("medium", torch.float32, torch.float32),
    "bfloat16-rounded operands, float32 product": ("highest", torch.bfloat16, torch.float32),
    "bfloat16 operands": ("highest", torch.bfloat16, torch.bfloat16),
}


def matmul(level, rounded_to, dtype):
    x, y = a.to(rounded_to).to(dtype), b.to(rounded_to).to(dtype)

    def run():
        torch.set_float32_matmul_precision(level)
        return x @ y
    return run


def seconds_per_call(run, calls):
    start = time.perf_counter()
    for _ in range(calls):
        run()
    return (time.perf_counter() - start) / calls


runs = {name: matmul(*spec) for name, spec in variants.items()}
errors = {name: (run().double() - exact).abs().max().item() for name, run in runs.items()}  # also the warm-up
# without native bfloat16 (an AVX2 CPU) a bfloat16 product takes seconds: one call per sample bounds the run
calls = {name: 3 if seconds_per_call(run, 1) < 0.1 else 1 for name, run in runs.items()}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, run in runs.items():
        samples[name].append(seconds_per_call(run, calls[name]) * 1e3)

print(f"threads: {THREADS}")
print(f"| variant | {N}x{N} matmul (ms) | IQR (ms) | runs | max abs error vs float64 |")
print("|---|---:|---:|---:|---:|")
for name in variants:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.2f} | {q3 - q1:.3f} | {ROUNDS} | {errors[name]:.3e} |")
