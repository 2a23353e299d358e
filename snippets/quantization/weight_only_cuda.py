# marks: cuda torchao
# estimate: 30
# Needs a CUDA GPU and torchao (the project's GPU machine has no torchao, so its recording skips this example).
import io
import logging

for noisy in ("torchao", "torch.utils._pytree"):
    logging.getLogger(noisy).setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torchao.quantization import Int4WeightOnlyConfig, Int8WeightOnlyConfig, quantize_  # noqa: E402


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 4096)).eval().to("cuda", torch.bfloat16)


def saved_bytes(model):
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    return buffer.tell()


torch.manual_seed(1)
inputs = torch.randn(64, 4096, device="cuda", dtype=torch.bfloat16)
reference = make_model()
with torch.no_grad():
    expected = reference(inputs).float()
configs = {
    "Int8WeightOnlyConfig()": Int8WeightOnlyConfig(),
    'Int4WeightOnlyConfig(group_size=128, int4_packing_format="tile_packed_to_4d")':
        Int4WeightOnlyConfig(group_size=128, int4_packing_format="tile_packed_to_4d"),
}
for name, config in configs.items():
    model = make_model()
    quantize_(model, config)
    with torch.no_grad():
        error = (model(inputs).float() - expected).abs().max().item() / expected.abs().max().item()
    share = saved_bytes(model) / saved_bytes(reference)
    print(f"{name}: weight {type(model[0].weight).__name__}")
    print(f"  state_dict at most 0.55 of bfloat16's: {share <= 0.55}, at most 0.3: {share <= 0.3}")
    print(f"  max |error| below 15% of the largest output: {error < 0.15}")
