# marks: cuda
# estimate: 40
# method: interleaved -- every variant runs once before any is measured, so none pays for .grad or a workspace
import contextlib
import math
import statistics
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils import benchmark

torch.manual_seed(0)
torch.set_num_threads(1)  # the host side of the launches; makes the printed "threads: 1" true
ROUNDS, BATCH, HEADS, HEAD_DIM = 10, 8, 16, 64
LENGTHS = (1024, 4096)


def hand_written(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return scores.softmax(dim=-1) @ v


def sdpa(backend):
    def attention(q, k, v):
        with sdpa_kernel(backend) if backend else contextlib.nullcontext():
            return F.scaled_dot_product_attention(q, k, v, is_causal=False)
    return attention


implementations = {
    "hand-written": hand_written,
    "SDPA (default choice)": sdpa(None),
    "SDPA FLASH_ATTENTION": sdpa(SDPBackend.FLASH_ATTENTION),
    "SDPA EFFICIENT_ATTENTION": sdpa(SDPBackend.EFFICIENT_ATTENTION),
    "SDPA CUDNN_ATTENTION": sdpa(SDPBackend.CUDNN_ATTENTION),
    "SDPA MATH": sdpa(SDPBackend.MATH),
}


def step(attention, q, k, v):
    def run():
        attention(q, k, v).sum().backward()
    return run


def peak_mib(run):
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    run()
    torch.cuda.synchronize()
    return (torch.cuda.max_memory_allocated() - before) / 2**20


runs = {}
for length in LENGTHS:
    q, k, v = (torch.randn(BATCH, HEADS, length, HEAD_DIM, device="cuda", dtype=torch.bfloat16, requires_grad=True)
               for _ in range(3))
    for name, attention in implementations.items():
        run = step(attention, q, k, v)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                run()  # allocates q.grad, k.grad, v.grad and the kernels' workspaces once, outside every measurement
                runs[f"{name}, L={length}"] = run
            except RuntimeError as error:  # torch.OutOfMemoryError is one too: the type name tells them apart
                print(f"{name}, L={length}: {type(error).__name__}: {str(error).splitlines()[0]}")
                for warning in caught:
                    print("  UserWarning:", str(warning.message).split(" (Triggered internally")[0])
rows = {name: (benchmark.Timer("f()", globals={"f": run}), peak_mib(run)) for name, run in runs.items()}

samples = {name: [] for name in rows}
for _ in range(ROUNDS):
    for name, (timer, _) in rows.items():
        samples[name].append(timer.timeit(5).mean * 1e3)

print("dtype: bfloat16; batch", BATCH, "heads", HEADS, "head dim", HEAD_DIM)
print("threads: 1")
print("| variant | forward + backward (ms) | IQR (ms) | runs | peak memory (MiB) |")
print("|---|---:|---:|---:|---:|")
for name, (_, peak) in rows.items():
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.3f} | {q3 - q1:.3f} | {ROUNDS} | {peak:.1f} |")
