# marks: cuda
# estimate: 30
# method: interleaved -- the four layout/precision train steps alternate in rounds, so a GPU clock change hits all
import contextlib
import statistics

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
ROUNDS = 10


def block(channels_in, channels_out):
    return nn.Sequential(nn.Conv2d(channels_in, channels_out, 3, padding=1, bias=False),
                         nn.BatchNorm2d(channels_out), nn.ReLU())


def network():
    return nn.Sequential(block(3, 64), block(64, 128), nn.MaxPool2d(2), block(128, 256), block(256, 256),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(256, 10)).cuda()


x = torch.randn(64, 3, 128, 128, device="cuda")
variants = {  # name: (memory format, autocast dtype or None)
    "float32, contiguous (NCHW)": (torch.contiguous_format, None),
    "float32, channels_last": (torch.channels_last, None),
    "bfloat16 autocast, contiguous (NCHW)": (torch.contiguous_format, torch.bfloat16),
    "bfloat16 autocast, channels_last": (torch.channels_last, torch.bfloat16),
}


def train_step(memory_format, dtype):
    model = network().to(memory_format=memory_format)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    inputs = x.to(memory_format=memory_format)

    def step():
        optimizer.zero_grad()
        with torch.autocast("cuda", dtype=dtype) if dtype else contextlib.nullcontext():
            loss = model(inputs).float().pow(2).mean()
        loss.backward()
        optimizer.step()
    return step


timers = {name: benchmark.Timer("f()", globals={"f": train_step(*spec)}) for name, spec in variants.items()}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(5).mean * 1e3)

print("cuDNN conv fp32 precision:", torch.backends.cudnn.conv.fp32_precision)
print("threads: 1")
print("| variant | train step, batch 64 (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name in variants:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.3f} | {q3 - q1:.3f} | {ROUNDS} |")
