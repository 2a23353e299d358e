# marks: torchao slow
# timeout: 300
# method: interleaved -- the three models of each batch size alternate round by round in one process
import logging
import statistics

for noisy in ("torchao", "torch.utils._pytree"):  # CUDA-only extensions skipped; an Enum registered the old way
    logging.getLogger(noisy).setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils import benchmark  # noqa: E402
from torchao.quantization import (  # noqa: E402
    Int8DynamicActivationInt8WeightConfig,
    Int8WeightOnlyConfig,
    quantize_,
)

ROUNDS = 7
CONFIGS = {"float32": None, "float32 + int8 weight-only": Int8WeightOnlyConfig,
           "float32 + int8 dynamic": Int8DynamicActivationInt8WeightConfig}


def build(config):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024), nn.GELU(),
                          nn.Linear(1024, 16)).eval()
    if config is not None:
        quantize_(model, config(set_inductor_config=False))
    return model


def measure(models, batch):
    """Per model, ROUNDS medians (us) on one input of `batch` rows, the models interleaved round by round."""
    x = torch.randn(batch, 1024)
    timers = {name: benchmark.Timer("model(x)", globals={"model": model, "x": x}, num_threads=1)
              for name, model in models.items()}
    times = {name: [] for name in models}
    with torch.no_grad():
        for _ in range(ROUNDS):
            for name, timer in timers.items():
                times[name].append(timer.blocked_autorange(min_run_time=0.3).median * 1e6)
    return times


models = {name: build(config) for name, config in CONFIGS.items()}
print("threads: 1")
print("| variant | median (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|")
for batch in (64, 256):
    for name, times in measure(models, batch).items():
        q1, _, q3 = statistics.quantiles(times, n=4)
        print(f"| {name}, eager, batch {batch} | {statistics.median(times):.1f} | {q3 - q1:.1f} | {ROUNDS} |")
