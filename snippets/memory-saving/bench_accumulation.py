# marks: slow
# timeout: 120
# method: interleaved -- both step shapes alternate in rounds on one model; saved bytes are counted afterwards, untimed
import statistics

import torch
from torch import nn
from torch.utils import benchmark

BATCH, MICRO_BATCHES = 256, 4
THREADS, ROUNDS = torch.get_num_threads(), 10


def saved_mib(model, inputs):
    """Bytes that autograd keeps alive for one backward pass, parameters excluded."""
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    saved = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in params:
            saved[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        loss = model(inputs).pow(2).mean()
    loss.backward()
    return sum(saved.values()) / 2**20


def step(model, batches):
    model.zero_grad()
    for batch in batches:
        (model(batch).pow(2).mean() / len(batches)).backward()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 1024), nn.GELU(), nn.Linear(1024, 256))
inputs = torch.randn(BATCH, 256)

# Separate tensors, as a DataLoader yields them: views of one batch would keep all of it alive.
variants = {
    f"1 batch of {BATCH}": [inputs],
    f"{MICRO_BATCHES} micro-batches of {BATCH // MICRO_BATCHES}": [c.clone() for c in inputs.chunk(MICRO_BATCHES)],
}
timers = {
    name: benchmark.Timer("step(model, batches)", globals={"step": step, "model": model, "batches": batches},
                          num_threads=THREADS)
    for name, batches in variants.items()
}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits both variants
    for name, timer in timers.items():
        samples[name].append(timer.timeit(3).mean * 1e3)

print(f"threads: {THREADS}")
print("| variant | median step (ms) | IQR (ms) | runs | saved for backward (MiB) |")
print("|---|---:|---:|---:|---:|")
for name, batches in variants.items():
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    median = statistics.median(samples[name])
    print(f"| {name} | {median:.1f} | {q3 - q1:.2f} | {ROUNDS} | {saved_mib(model, batches[0]):.3f} |")
