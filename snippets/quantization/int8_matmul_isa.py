# marks: torchao
# timeout: 180
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


def int_mm_is_exact(a_dtype, low=-127, high=128):
    torch.manual_seed(0)
    a = torch.randint(low, high, (64, 1024), dtype=torch.int8)
    b = torch.randint(low, high, (1024, 256), dtype=torch.int8)
    if a_dtype == torch.uint8:  # what torchao's u8s8 path multiplies: the input shifted by 128
        a = (a.int() + 128).to(torch.uint8)
    return torch.equal(torch._int_mm(a, b), a.int() @ b.int())


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024), nn.GELU(),
                         nn.Linear(1024, 16)).eval()


def model_errors(reduce_range):
    """Max |logit error| and argmax agreement with float32, on the path torchao chose and on s8s8."""
    model = make_model()
    inputs = torch.randn(512, 1024)
    with torch.no_grad():
        expected = model(inputs)
        quantize_(model, Int8DynamicActivationInt8WeightConfig(reduce_range=reduce_range))
        results = []
        # torchao picks u8s8 or s8s8 from the CPU's own flags, which the caps do not change; a CPU
        # without AVX512-VNNI takes s8s8, so force that path for the second result
        for vnni in (torchao.kernel.intmm._cpu_is_vnni_supported(), False):
            torchao.kernel.intmm._cpu_is_vnni_supported = lambda vnni=vnni: vnni
            logits = model(inputs)
            results.append(((logits - expected).abs().max().item(),
                            (logits.argmax(1) == expected.argmax(1)).float().mean().item()))
    return results


def facts():
    capabilities = torch.cpu.get_capabilities()
    return {"vnni": bool(capabilities.get("avx512_vnni") or capabilities.get("avx_vnni")),
            "exact": [int_mm_is_exact(torch.int8), int_mm_is_exact(torch.uint8)],
            "exact_reduced": [int_mm_is_exact(torch.int8, -64, 64), int_mm_is_exact(torch.uint8, -64, 64)],
            "default": model_errors(False), "reduced": model_errors(True)}


def run(capped):
    env = {name: value for name, value in os.environ.items() if name not in CAPS}
    if capped:
        env.update(ONEDNN_MAX_CPU_ISA="AVX2", ATEN_CPU_CAPABILITY="avx2")
    done = subprocess.run([sys.executable, __file__, "--facts"], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def error_bound(error):
    return next(f"< {bound:g}" for bound in (1e-3, 1e-2, 1e-1, 1, float("inf")) if error < bound)


def report(name, paths):
    (chosen, chosen_agreement), (s8s8, s8s8_agreement) = paths
    print(f"  {name}: max |logit error| {error_bound(chosen)} on the path torchao chose, {error_bound(s8s8)} on s8s8;"
          f" same argmax on at least 93% of 512 inputs: {chosen_agreement >= 0.93}, {s8s8_agreement >= 0.93}")


if sys.argv[1:] == ["--facts"]:
    print(json.dumps(facts()))
    sys.exit()

capped, free = run(True), run(False)
print("ONEDNN_MAX_CPU_ISA=AVX2, ATEN_CPU_CAPABILITY=avx2:")
print("  torch._int_mm equals the int32 product: int8 x int8 {}, uint8 x int8 {}".format(*capped["exact"]))
print("  ... within reduce_range's 7-bit range: int8 x int8 {}, uint8 x int8 {}".format(*capped["exact_reduced"]))
report("default", capped["default"])
report("reduce_range=True", capped["reduced"])
print("no cap:")
print("  torch._int_mm equals the int32 product exactly where the CPU has VNNI:",
      all(exact == free["vnni"] for exact in free["exact"]))
print("  default config's max error below reduce_range's exactly where the CPU has VNNI:",
      (free["default"][0][0] < free["reduced"][0][0]) == free["vnni"])
print("  reduce_range=True: same max error as under the cap (within 1e-4):",
      all(abs(a[0] - b[0]) < 1e-4 for a, b in zip(free["reduced"], capped["reduced"], strict=True)))
