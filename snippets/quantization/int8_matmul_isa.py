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
import torchao.kernel.intmm  # noqa: E402
from torch import nn  # noqa: E402
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, quantize_  # noqa: E402

CAPS = ("ONEDNN_MAX_CPU_ISA", "ATEN_CPU_CAPABILITY")


def int_mm_is_exact(a_dtype):
    torch.manual_seed(0)
    a = torch.randint(-127, 128, (64, 1024), dtype=torch.int8)
    b = torch.randint(-127, 128, (1024, 256), dtype=torch.int8)
    if a_dtype == torch.uint8:  # what torchao's u8s8 path multiplies: the input shifted by 128
        a = (a.int() + 128).to(torch.uint8)
    return torch.equal(torch._int_mm(a, b), a.int() @ b.int())


def model_errors_below_bound():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024), nn.GELU(),
                          nn.Linear(1024, 16)).eval()
    inputs = torch.randn(512, 1024)
    with torch.no_grad():
        expected = model(inputs)
        quantize_(model, Int8DynamicActivationInt8WeightConfig())
        chosen = (model(inputs) - expected).abs().max().item()
        # torchao picks u8s8 or s8s8 from the CPU's own flags, which the caps do not change; a CPU
        # without AVX512-VNNI takes s8s8, so force that path here
        torchao.kernel.intmm._cpu_is_vnni_supported = lambda: False
        s8s8 = (model(inputs) - expected).abs().max().item()
    return chosen < 0.01, s8s8 < 0.01


if sys.argv[1:] == ["--facts"]:
    print(json.dumps({"exact": [int_mm_is_exact(torch.int8), int_mm_is_exact(torch.uint8)],
                      "below": model_errors_below_bound()}))
    sys.exit()

for capped in (False, True):
    env = {name: value for name, value in os.environ.items() if name not in CAPS}
    if capped:
        env.update(ONEDNN_MAX_CPU_ISA="AVX2", ATEN_CPU_CAPABILITY="avx2")
    done = subprocess.run([sys.executable, __file__, "--facts"], env=env, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.splitlines()[-1])
    print("ONEDNN_MAX_CPU_ISA=AVX2, ATEN_CPU_CAPABILITY=avx2:" if capped else "no cap:")
    print("  torch._int_mm equals the int32 product: int8 x int8 {}, uint8 x int8 {}".format(*result["exact"]))
    print("  int8 dynamic model's max |logit error| < 0.01: the path torchao chose {}, "
          "the s8s8 path {}".format(*result["below"]))
