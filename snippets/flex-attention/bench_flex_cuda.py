# marks: cuda
# estimate: 90
# method: interleaved -- every variant runs (and compiles) once before any is measured; a slow moment hits all
import statistics

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention
from torch.utils import benchmark

torch.manual_seed(0)
torch.set_num_threads(1)  # the host side of the launches; makes the printed "threads: 1" true
ROUNDS, BATCH, HEADS, LENGTH, HEAD_DIM = 10, 4, 16, 4096, 64


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


q, k, v = (torch.randn(BATCH, HEADS, LENGTH, HEAD_DIM, device="cuda", dtype=torch.bfloat16, requires_grad=True)
           for _ in range(3))
grad_out = torch.randn_like(q)
causal_mask = create_block_mask(causal, B=None, H=None, Q_LEN=LENGTH, KV_LEN=LENGTH, device="cuda")
compiled_flex = torch.compile(flex_attention)
variants = {
    "SDPA, is_causal=True": lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True),
    "flex_attention compiled, causal BlockMask": lambda: compiled_flex(q, k, v, block_mask=causal_mask),
    "flex_attention compiled, no mask": lambda: compiled_flex(q, k, v),
}


def forward_only(run):
    def forward():
        with torch.no_grad():
            run()
    return forward


def forward_backward(run):
    def step():
        run().backward(grad_out)
    return step


timers = {}
for name, run in variants.items():
    forward_backward(run)()  # compiles, and allocates the gradients, outside every measurement
    forward_only(run)()  # compiles the inference graph too
    timers[name] = (benchmark.Timer("f()", globals={"f": forward_only(run)}),
                    benchmark.Timer("f()", globals={"f": forward_backward(run)}))
samples = {name: ([], []) for name in variants}
for _ in range(ROUNDS):
    for name, (forward, step) in timers.items():
        samples[name][0].append(forward.timeit(5).mean * 1e3)
        samples[name][1].append(step.timeit(5).mean * 1e3)


def median_iqr(times):
    q1, _, q3 = statistics.quantiles(times, n=4)
    return f"{statistics.median(times):.3f} | {q3 - q1:.3f}"


print(f"shape: batch {BATCH}, heads {HEADS}, length {LENGTH}, head dim {HEAD_DIM}, bfloat16")
print("threads: 1")
print("| variant | forward (ms) | IQR (ms) | forward + backward (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|---:|---:|")
for name, (forward, step) in samples.items():
    print(f"| {name} | {median_iqr(forward)} | {median_iqr(step)} | {ROUNDS} |")
