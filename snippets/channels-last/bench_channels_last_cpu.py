# timeout: 180
# method: interleaved -- the four layout pairs alternate in rounds on the same weights and input
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
THREADS, ROUNDS, NUMBER = torch.get_num_threads(), 15, 10  # NUMBER forwards per sample


def block(channels_in, channels_out):
    return nn.Sequential(nn.Conv2d(channels_in, channels_out, 3, padding=1, bias=False),
                         nn.BatchNorm2d(channels_out), nn.ReLU())


def network():
    return nn.Sequential(block(3, 32), block(32, 64), nn.MaxPool2d(2), block(64, 64), block(64, 64),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))


x = torch.randn(16, 3, 32, 32)
layouts = {"NCHW": torch.contiguous_format, "NHWC": torch.channels_last}
variants = {  # name: (the model's layout, the input's layout)
    "contiguous (NCHW)": ("NCHW", "NCHW"),
    "channels_last (NHWC)": ("NHWC", "NHWC"),
    "model channels_last, input NCHW": ("NHWC", "NCHW"),
    "model NCHW, input channels_last": ("NCHW", "NHWC"),
}
models = {name: network().eval().to(memory_format=fmt) for name, fmt in layouts.items()}
for model in models.values():
    model.load_state_dict(models["NCHW"].state_dict())
inputs = {name: x.to(memory_format=fmt) for name, fmt in layouts.items()}
with torch.inference_mode():
    outputs = [models[model](inputs[image]) for model, image in variants.values()]
print("same predictions:", all(torch.allclose(outputs[0], output, atol=1e-4) for output in outputs))


def forward(model, image):
    def run():
        with torch.inference_mode():
            models[model](inputs[image])
    return run


timers = {name: benchmark.Timer("f()", globals={"f": forward(*spec)}, num_threads=THREADS)
          for name, spec in variants.items()}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):  # interleaved, so that a slow moment of the machine hits every variant
    for name, timer in timers.items():
        samples[name].append(timer.timeit(NUMBER).mean * 1e3)

print(f"threads: {THREADS}")
print("| variant | forward, batch 16 (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name in variants:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.2f} | {q3 - q1:.3f} | {ROUNDS} |")
