# timeout: 180
# method: interleaved -- both layouts alternate in rounds on the same weights and input, so a slow moment hits both
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
THREADS, ROUNDS = torch.get_num_threads(), 10


def block(channels_in, channels_out):
    return nn.Sequential(nn.Conv2d(channels_in, channels_out, 3, padding=1, bias=False),
                         nn.BatchNorm2d(channels_out), nn.ReLU())


def network():
    return nn.Sequential(block(3, 32), block(32, 64), nn.MaxPool2d(2), block(64, 64), block(64, 64),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))


x = torch.randn(16, 3, 32, 32)
formats = {"contiguous (NCHW)": torch.contiguous_format, "channels_last (NHWC)": torch.channels_last}
models = {name: network().eval().to(memory_format=fmt) for name, fmt in formats.items()}
for model in models.values():
    model.load_state_dict(models["contiguous (NCHW)"].state_dict())
inputs = {name: x.to(memory_format=fmt) for name, fmt in formats.items()}
with torch.inference_mode():
    outputs = [models[name](inputs[name]) for name in formats]
print("same predictions:", torch.allclose(*outputs, atol=1e-4))


def forward(name):
    def run():
        with torch.inference_mode():
            models[name](inputs[name])
    return run


timers = {name: benchmark.Timer("f()", globals={"f": forward(name)}, num_threads=THREADS) for name in formats}
samples = {name: [] for name in formats}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, timer in timers.items():
        samples[name].append(timer.timeit(3).mean * 1e3)

print(f"threads: {THREADS}")
print("| variant | forward, batch 16 (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name in formats:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.2f} | {q3 - q1:.3f} | {ROUNDS} |")
