# marks: slow
# timeout: 300
# method: interleaved -- a slow moment hits every variant; each runs once, at the timed thread count, before timing
# depends: isa -- compiled FlexAttention on the CPU needs torch's AVX2 kernels (not ATEN_CPU_CAPABILITY=default)
import statistics
import warnings

import torch
import torch.nn.functional as F
from torch._dynamo.utils import counters
from torch.nn.attention.flex_attention import create_block_mask, flex_attention
from torch.utils import benchmark

warnings.filterwarnings("ignore", message="flex_attention called without torch.compile")  # shown by mods.py
torch.manual_seed(0)
THREADS, ROUNDS, HEADS, LENGTH, HEAD_DIM = 1, 7, 2, 1024, 64
torch.set_num_threads(THREADS)  # before the warm-up: Dynamo guards on it, and Inductor compiles it into the kernel
q, k, v = (torch.randn(1, HEADS, LENGTH, HEAD_DIM) for _ in range(3))


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=LENGTH, KV_LEN=LENGTH, device="cpu")
compiled_flex = torch.compile(flex_attention)
variants = {
    "SDPA, is_causal=True": lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True),
    "flex_attention, compiled": lambda: compiled_flex(q, k, v, block_mask=block_mask),
    "flex_attention, eager": lambda: flex_attention(q, k, v, block_mask=block_mask),
}
outputs = {name: run() for name, run in variants.items()}  # compiles, and warms every variant up
for name in list(variants)[1:]:
    difference = (outputs[name] - outputs["SDPA, is_causal=True"]).abs().max().item()
    print(f"{name} vs SDPA: max |difference| < 1e-5: {difference < 1e-5}")

timers = {name: benchmark.Timer("run()", globals={"run": run}, num_threads=THREADS) for name, run in variants.items()}
samples = {name: [] for name in variants}
graphs_before_rounds = counters["stats"]["unique_graphs"]
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(5).mean * 1e3)
print("no graph compiled during the timed rounds:", counters["stats"]["unique_graphs"] == graphs_before_rounds)

print(f"shape: batch 1, heads {HEADS}, length {LENGTH}, head dim {HEAD_DIM}, float32")
print(f"threads: {THREADS}")
print("| variant | forward (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name, times in samples.items():
    q1, _, q3 = statistics.quantiles(times, n=4)
    print(f"| {name} | {statistics.median(times):.3f} | {q3 - q1:.3f} | {ROUNDS} |")
