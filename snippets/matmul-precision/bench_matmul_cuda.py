# marks: cuda
# estimate: 30
# method: interleaved -- each run sets its own fp32 precision, so the six matmuls alternate and share GPU clock changes
import statistics

import torch
from torch.utils import benchmark

torch.manual_seed(0)
ROUNDS = 10
variants = {  # name: (size, dtype of the operands, float32 precision on CUDA)
    "float32 ieee, 8192": (8192, torch.float32, "ieee"),
    "float32 tf32, 8192": (8192, torch.float32, "tf32"),
    "float32 tf32, 8191": (8191, torch.float32, "tf32"),
    "bfloat16, 8192": (8192, torch.bfloat16, "ieee"),
    "bfloat16, 8191": (8191, torch.bfloat16, "ieee"),
    "float16, 8192": (8192, torch.float16, "ieee"),
}
operands = {n: torch.randn(2, n, n, device="cuda").unbind(0) for n in {spec[0] for spec in variants.values()}}


def matmul(n, dtype, precision):
    x, y = (t.to(dtype) for t in operands[n])

    def run():
        torch.backends.cuda.matmul.fp32_precision = precision
        return x @ y
    return run


def max_error(n, run):
    exact = operands[n][0].double() @ operands[n][1].double()
    return (run().double() - exact).abs().max().item()


runs = {name: matmul(*spec) for name, spec in variants.items()}
errors = {name: max_error(variants[name][0], run) for name, run in runs.items()}
timers = {name: benchmark.Timer("f()", globals={"f": run}) for name, run in runs.items()}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(2 * variants[name][0] ** 3 / timer.timeit(10).mean / 1e12)

print("threads: 1")
print("| variant | TFLOP/s | IQR (TFLOP/s) | runs | max abs error vs float64 |")
print("|---|---:|---:|---:|---:|")
for name in variants:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.1f} | {q3 - q1:.2f} | {ROUNDS} | {errors[name]:.3e} |")
