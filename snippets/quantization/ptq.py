# marks: torchao
# timeout: 120
import io
import logging

# torchao's import logs that it skipped its CUDA-only extensions, and torch logs that torchao
# registers an Enum the old way; neither concerns a CPU run.
for noisy in ("torchao", "torch.utils._pytree"):
    logging.getLogger(noisy).setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torchao.prototype.quantization.int4 import PrototypeInt4WeightOnlyConfig  # noqa: E402
from torchao.quantization import (  # noqa: E402
    Int4WeightOnlyConfig,
    Int8DynamicActivationInt8WeightConfig,
    Int8WeightOnlyConfig,
    IntxWeightOnlyConfig,
    PerGroup,
    quantize_,
)


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024), nn.GELU(),
                         nn.Linear(1024, 16)).eval()


def saved_mib(model):
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.tell() / 2**20


def error_bound(error):
    return next(f"< {bound:g}" for bound in (1e-3, 1e-2, 1e-1, 1, float("inf")) if error < bound)


torch.manual_seed(1)
inputs = torch.randn(512, 1024)
reference = make_model()
with torch.no_grad():
    expected = reference(inputs)
float32_mib = saved_mib(reference)

variants = {  # name: (the model's dtype, config)
    "bfloat16 (cast)": (torch.bfloat16, None),
    "Int8WeightOnlyConfig()": (torch.float32, Int8WeightOnlyConfig()),
    "Int8DynamicActivationInt8WeightConfig(reduce_range=True)":
        (torch.float32, Int8DynamicActivationInt8WeightConfig(reduce_range=True)),
    "IntxWeightOnlyConfig(int4)":
        (torch.float32, IntxWeightOnlyConfig(weight_dtype=torch.int4, granularity=PerGroup(32))),
    "PrototypeInt4WeightOnlyConfig(group_size=32), bfloat16 model":
        (torch.bfloat16, PrototypeInt4WeightOnlyConfig(group_size=32)),
}
print(f"float32: state_dict {float32_mib:.1f} MiB")
max_errors = {}
for name, (dtype, config) in variants.items():
    model = make_model().to(dtype)
    if config is not None:
        quantize_(model, config)
    weight = model[0].weight
    stored = weight.qdata if hasattr(weight, "qdata") else weight
    with torch.no_grad():
        logits = model(inputs.to(dtype)).float()
    agreement = (logits.argmax(1) == expected.argmax(1)).float().mean().item()
    print(f"{name}:")
    print(f"  weight: {type(weight).__name__}, values stored as {stored.dtype}, {tuple(stored.shape)} for a "
          f"{tuple(weight.shape)} weight")
    print(f"  state_dict {saved_mib(model):.1f} MiB, float32 / this = {float32_mib / saved_mib(model):.1f}")
    max_errors[name] = (logits - expected).abs().max().item()
    print(f"  max |logit - float32 logit| {error_bound(max_errors[name])}")
    print(f"  same argmax as float32 on at least 93% of 512 inputs: {agreement >= 0.93}")
print("dynamic int8's max error is above weight-only int8's:",
      max_errors["Int8DynamicActivationInt8WeightConfig(reduce_range=True)"] > max_errors["Int8WeightOnlyConfig()"])

try:  # the int4 config with its packed layout
    quantize_(make_model().to(torch.bfloat16), Int4WeightOnlyConfig())
except ImportError as error:
    print("Int4WeightOnlyConfig() on the CPU: ImportError:", error)
