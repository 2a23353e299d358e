# marks: slow
# timeout: 120
import torch
from torch import nn
from torch.utils import benchmark

BATCH, MICRO_BATCHES = 256, 4


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


def step(model, inputs, micro_batches):
    model.zero_grad()
    for chunk in inputs.chunk(micro_batches):
        (model(chunk).pow(2).mean() / micro_batches).backward()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 1024), nn.GELU(), nn.Linear(1024, 256))
inputs = torch.randn(BATCH, 256)

print("| variant | median step (ms) | saved for backward (MiB) |")
print("|---|---|---|")
for name, micro_batches in (("1 batch of 256", 1), (f"{MICRO_BATCHES} micro-batches of 64", MICRO_BATCHES)):
    timer = benchmark.Timer(
        "step(model, inputs, micro_batches)",
        globals={"step": step, "model": model, "inputs": inputs, "micro_batches": micro_batches},
    )
    median = timer.blocked_autorange(min_run_time=1.0).median
    peak = saved_mib(model, inputs.chunk(micro_batches)[0])
    print(f"| {name} | {median * 1e3:.1f} | {peak:.1f} |")
