# marks: cuda
# estimate: 90
# timeout: 240
# method: processes -- cuDNN keeps the algorithm it picked for a shape for the whole process
import itertools
import json
import statistics
import subprocess
import sys

import torch
from torch import nn
from torch.utils import benchmark

ROUNDS = 5
VARIANTS = {
    "benchmark=False, fixed shape": (False, True),
    "benchmark=True, fixed shape": (True, True),
    "benchmark=False, new shape every call": (False, False),
    "benchmark=True, new shape every call": (True, False),
}


def measure(cudnn_benchmark, fixed_shape):
    """One variant in this fresh process: milliseconds per forward, over 3 timed calls (calls 4 to 6:
    the first call below, then the 2 warm-up calls of Timer.timeit)."""
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = cudnn_benchmark
    model = nn.Sequential(nn.Conv2d(3, 64, 7, padding=3), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1)).cuda()
    sizes = itertools.count(96)  # a new input height at every call: every call is a new shape

    def forward():
        height = 128 if fixed_shape else next(sizes)
        with torch.inference_mode():
            model(torch.randn(32, 3, height, 128, device="cuda"))

    forward()  # the first call of a fixed shape pays for the search; the table shows the calls after it
    return benchmark.Timer("f()", globals={"f": forward}).timeit(3).mean * 1e3


if len(sys.argv) == 2:
    print(json.dumps(measure(*json.loads(sys.argv[1]))))
    sys.exit()

print("defaults: cudnn.benchmark =", torch.backends.cudnn.benchmark, "| cudnn.benchmark_limit =",
      torch.backends.cudnn.benchmark_limit)
samples = {name: [] for name in VARIANTS}
for _ in range(ROUNDS):
    for name, variant in VARIANTS.items():
        command = [sys.executable, __file__, json.dumps(variant)]
        samples[name].append(json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout))

print("threads: 1")
print("| variant | forward (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name in VARIANTS:
    q1, _, q3 = statistics.quantiles(samples[name], n=4)
    print(f"| {name} | {statistics.median(samples[name]):.3f} | {q3 - q1:.3f} | {ROUNDS} |")
