# marks: torchao slow
# timeout: 900
# method: processes -- each compiled variant in a new process with an empty Inductor cache; eager ones in the parent
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile

for noisy in ("torchao", "torch.utils._pytree"):  # CUDA-only extensions skipped; an Enum registered the old way
    logging.getLogger(noisy).setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch._dynamo.utils import counters  # noqa: E402
from torch.utils import benchmark  # noqa: E402
from torchao.quantization import (  # noqa: E402
    Int8DynamicActivationInt8WeightConfig,
    Int8WeightOnlyConfig,
    quantize_,
)

ROUNDS = 7
CONFIGS = {"int8 weight-only": Int8WeightOnlyConfig, "int8 dynamic": Int8DynamicActivationInt8WeightConfig}


def build(variant):
    """`<float32|bfloat16>[ + <config>], <eager|compiled>` -> (model, one input row)."""
    torch.manual_seed(0)
    dtype = torch.bfloat16 if variant.startswith("bfloat16") else torch.float32
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024), nn.GELU(),
                          nn.Linear(1024, 16)).eval().to(dtype)
    for name, config in CONFIGS.items():
        if f"+ {name}," in variant:
            quantize_(model, config(set_inductor_config=False))  # both compiled variants: Inductor's own settings
    if variant.endswith("compiled"):
        model = torch.compile(model)
    return model, torch.randn(1, 1024, dtype=dtype)


def timers(variants):
    built = {variant: build(variant) for variant in variants}
    with torch.no_grad():
        for model, x in built.values():
            model(x)  # compiles a compiled variant
    return {variant: benchmark.Timer("model(x)", globals={"model": model, "x": x}, num_threads=1)
            for variant, (model, x) in built.items()}


def measure(variants):
    """Per variant, ROUNDS medians (us), the variants interleaved round by round."""
    timed = timers(variants)
    times = {variant: [] for variant in variants}
    with torch.no_grad():
        for _ in range(ROUNDS):
            for variant, timer in timed.items():
                times[variant].append(timer.blocked_autorange(min_run_time=0.3).median * 1e6)
    return times


torch.set_num_threads(1)
if sys.argv[1:2] == ["--variant"]:  # what each new process below runs
    settings = torch._inductor.config.get_config_copy()
    times = measure([sys.argv[2]])
    print(json.dumps({"times": times[sys.argv[2]], "int8 kernels": counters["inductor"]["woq_matcher_count"],
                      "settings changed": torch._inductor.config.get_config_copy() != settings}))
    sys.exit()


def in_new_process(variant):
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache}
        done = subprocess.run([sys.executable, __file__, "--variant", variant], env=env, capture_output=True,
                              text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


EAGER = ["float32, eager", "float32 + int8 weight-only, eager", "float32 + int8 dynamic, eager",
         "bfloat16, eager", "bfloat16 + int8 weight-only, eager"]
COMPILED = ["bfloat16, compiled", "bfloat16 + int8 weight-only, compiled", "float32 + int8 weight-only, compiled"]
rows = measure(EAGER)
for variant in COMPILED:
    result = in_new_process(variant)
    rows[variant] = result["times"]
    print(f"{variant}: linear layers Inductor lowered to aten._weight_int8pack_mm: {result['int8 kernels']} of 3; "
          f"Inductor settings changed in the process: {result['settings changed']}")

print("threads: 1")
print("| variant | median (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|")
for variant, times in rows.items():
    q1, _, q3 = statistics.quantiles(times, n=4)
    print(f"| {variant} | {statistics.median(times):.1f} | {q3 - q1:.1f} | {ROUNDS} |")
