# marks: torchao
# timeout: 120
import copy
import logging

for noisy in ("torchao", "torch.utils._pytree"):  # CUDA-only extensions skipped; an Enum registered the old way
    logging.getLogger(noisy).setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torchao.quantization import IntxWeightOnlyConfig, PerAxis, quantize_  # noqa: E402
from torchao.quantization.qat import QATConfig  # noqa: E402

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(64, 256), nn.Tanh(), nn.Linear(256, 10))
inputs, held_out = torch.randn(4096, 64), torch.randn(4096, 64)  # to train on; to measure the loss on
with torch.no_grad():
    targets, held_out_targets = teacher(inputs), teacher(held_out)


def train(model, steps, lr):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for step in range(steps):
        batch = slice(step % 16 * 256, (step % 16 + 1) * 256)
        loss = nn.functional.mse_loss(model(inputs[batch]), targets[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def loss_of(model):
    with torch.no_grad():
        return nn.functional.mse_loss(model(held_out), held_out_targets).item()


torch.manual_seed(1)
trained = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10))
train(trained, steps=200, lr=3e-3)
base_config = IntxWeightOnlyConfig(weight_dtype=torch.int2, granularity=PerAxis(0))

post_training = copy.deepcopy(trained)  # the same extra steps in float32, then quantized
train(post_training, steps=50, lr=1e-3)
float_loss = loss_of(post_training)
quantize_(post_training, base_config)

aware = copy.deepcopy(trained)  # fine-tuned with the rounding simulated, then quantized
quantize_(aware, QATConfig(base_config, step="prepare"))
print("after prepare:", type(aware[0]).__name__, "weight", type(aware[0].weight).__name__)
train(aware, steps=50, lr=1e-3)
quantize_(aware, QATConfig(base_config, step="convert"))
print("after convert:", type(aware[0]).__name__, "weight", type(aware[0].weight).__name__)

ptq_loss, qat_loss = loss_of(post_training), loss_of(aware)
print("post-training quantization raised the loss above float32's:", ptq_loss > float_loss)
print("QAT's quantized model has a lower loss than post-training's:", qat_loss < ptq_loss)
print("QAT's quantized loss / post-training's is below 0.9:", qat_loss / ptq_loss < 0.9)
print("QAT's quantized loss is still above twice float32's:", qat_loss > 2 * float_loss)
