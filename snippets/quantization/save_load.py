# marks: torchao
# timeout: 120
import io
import logging

for noisy in ("torchao", "torch.utils._pytree"):  # CUDA-only extensions skipped; an Enum registered the old way
    logging.getLogger(noisy).setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torchao.quantization import Int8WeightOnlyConfig, quantize_  # noqa: E402


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(256, 512), nn.GELU(), nn.Linear(512, 16)).eval()


quantized = make_model()
quantize_(quantized, Int8WeightOnlyConfig())
buffer = io.BytesIO()
torch.save(quantized.state_dict(), buffer)
buffer.seek(0)
state = torch.load(buffer)  # weights_only=True, torch.load's default
print("torch.load:", type(state["0.weight"]).__name__)

try:
    make_model().load_state_dict(state)
except RuntimeError as error:
    cause = str(error).split("an exception occurred : ")[1].splitlines()[0]
    print("float model, load_state_dict(state): RuntimeError ...", cause)

assigned = make_model()
assigned.load_state_dict(state, assign=True)  # the model takes the loaded tensors instead of copying into its own
quantized_first = make_model()
quantize_(quantized_first, Int8WeightOnlyConfig())
quantized_first.load_state_dict(state)
x = torch.randn(8, 256)
with torch.no_grad():
    for name, model in {"float model, assign=True": assigned, "quantized first": quantized_first}.items():
        weight = model[0].weight
        print(f"{name}: weight {type(weight).__name__}, requires_grad {weight.requires_grad}, "
              f"same output as the saved model: {torch.equal(model(x), quantized(x))}")
