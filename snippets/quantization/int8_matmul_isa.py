# marks: torchao
# timeout: 180
# depends: isa -- whether oneDNN's int8 matmul is exact depends on the instructions it may use
import json
import logging
import os
import subprocess
import sys

for noisy in ("torchao", "torch.utils._pytree"):  # CUDA-only extensions skipped; an Enum registered the old way
    logging.getLogger(noisy).setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, quantize_  # noqa: E402


def facts():
    torch.manual_seed(0)
    a = torch.randint(-127, 128, (64, 1024), dtype=torch.int8)
    b = torch.randint(-127, 128, (1024, 256), dtype=torch.int8)
    exact = torch.equal(torch._int_mm(a, b), a.int() @ b.int())
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024), nn.GELU(),
                          nn.Linear(1024, 16)).eval()
    inputs = torch.randn(512, 1024)
    with torch.no_grad():
        expected = model(inputs)
        quantize_(model, Int8DynamicActivationInt8WeightConfig())
        error = (model(inputs) - expected).abs().max().item()
    return {"exact": exact, "error below 0.01": error < 0.01}


if sys.argv[1:] == ["--facts"]:
    print(json.dumps(facts()))
    sys.exit()

for cap in (None, "AVX2"):
    env = {**os.environ, **({"ONEDNN_MAX_CPU_ISA": cap} if cap else {})}
    done = subprocess.run([sys.executable, __file__, "--facts"], env=env, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.splitlines()[-1])
    where = f"ONEDNN_MAX_CPU_ISA={cap}" if cap else "oneDNN unrestricted"
    print(f"{where}: torch._int_mm equals the int32 product: {result['exact']}; "
          f"int8 dynamic model's max |logit error| < 0.01: {result['error below 0.01']}")
