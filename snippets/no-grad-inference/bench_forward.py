# marks: slow
# timeout: 120
# method: interleaved -- each forward sets its own mode and grad context, so the four alternate in rounds on one model
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(512, 2048), nn.GELU(), nn.Dropout(0.1),
    nn.Linear(2048, 2048), nn.GELU(), nn.Dropout(0.1),
    nn.Linear(2048, 512),
)
x = torch.randn(64, 512)
THREADS, ROUNDS = torch.get_num_threads(), 15


def saved_activations_mib(forward):
    parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}
    storages = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in parameters:
            storages[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        forward()
    return sum(storages.values()) / 2**20


def variant(train, context):
    def forward():
        model.train(train)
        with context():
            return model(x)
    return forward


variants = {
    "train()": variant(True, torch.enable_grad),
    "eval()": variant(False, torch.enable_grad),
    "eval() + no_grad()": variant(False, torch.no_grad),
    "eval() + inference_mode()": variant(False, torch.inference_mode),
}
timers = {
    name: benchmark.Timer("forward()", globals={"forward": f}, num_threads=THREADS)
    for name, f in variants.items()
}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, timer in timers.items():
        samples[name].append(timer.timeit(5).mean * 1e3)

print(f"threads: {THREADS}")
print("| variant | median (ms) | IQR (ms) | runs | activations saved (MiB) |")
print("|---|---:|---:|---:|---:|")
for name, forward in variants.items():
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    median = statistics.median(samples[name])
    print(f"| {name} | {median:.2f} | {q3 - q1:.3f} | {ROUNDS} | {saved_activations_mib(forward):.2f} |")
