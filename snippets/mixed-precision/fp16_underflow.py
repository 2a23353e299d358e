import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(64, 64)
x = torch.randn(32, 64)


def gradients(dtype, loss_scale):
    model.zero_grad()
    with torch.autocast("cpu", dtype=dtype):
        activation = model(x)
    activation.retain_grad()
    loss = (activation.float() * 1e-8).sum()
    (loss * loss_scale).backward()
    return activation.grad, model.weight.grad / loss_scale


def zeros(tensor):
    return f"{str(tensor.dtype).removeprefix('torch.')}, {int((tensor == 0).sum())}/{tensor.numel()} zero"


print(f"{'autocast':<9} {'loss scale':>10}  {'activation gradient':<24} weight gradient")
for dtype, loss_scale in ((torch.float16, 1), (torch.float16, 2**16), (torch.bfloat16, 1)):
    activation_grad, weight_grad = gradients(dtype, loss_scale)
    name = str(dtype).removeprefix("torch.")
    print(f"{name:<9} {loss_scale:>10}  {zeros(activation_grad):<24} {zeros(weight_grad)}")
