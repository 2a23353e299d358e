import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(64, 64)
x = torch.randn(32, 64)


def gradients(dtype, loss_scale, inputs, output_grad):
    model.zero_grad()
    with torch.autocast("cpu", dtype=dtype):
        activation = model(inputs)
    activation.retain_grad()
    loss = (activation.float() * output_grad).sum()
    (loss * loss_scale).backward()
    return activation.grad, model.weight.grad / loss_scale


def zeros(tensor):
    return f"{str(tensor.dtype).removeprefix('torch.')}, {int((tensor == 0).sum())}/{tensor.numel()} zero"


print(f"{'autocast':<9} {'input':<9} {'output grad':<11} {'loss scale':>10}  {'activation gradient':<24}",
      "weight gradient")
for dtype, input_scale, output_grad, loss_scale in (
    (torch.float16, 1, 1e-8, 1),
    (torch.float16, 1, 1e-8, 2**16),
    (torch.bfloat16, 1, 1e-8, 1),
    (torch.float16, 1e-3, 1e-7, 1),
    (torch.float16, 1e-3, 1e-7, 2**16),
):
    activation_grad, weight_grad = gradients(dtype, loss_scale, x * input_scale, output_grad)
    name = str(dtype).removeprefix("torch.")
    print(f"{name:<9} {f'x * {input_scale:g}':<9} {output_grad:<11g} {loss_scale:>10}  "
          f"{zeros(activation_grad):<24} {zeros(weight_grad)}")
with torch.autocast("cpu", dtype=torch.float16):
    node = model(x).grad_fn
path = [node.name()]
while node.next_functions:  # the weight is the third input of addmm, then each node's first
    node = node.next_functions[2 if len(path) == 1 else 0][0]
    path.append(node.name())
print("float16 autocast, backward path to the weight:", " -> ".join(path))
