import warnings

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
grad_norms = {}


def save_grad_norm(name):
    def hook(module, grad_input, grad_output):
        grad_norms[name] = (grad_output[0].norm().item(), grad_input[0] is None)

    return hook


handles = [
    module.register_full_backward_hook(save_grad_norm(name))
    for name, module in model.named_modules()
    if isinstance(module, nn.Linear)
]
loss = model(torch.randn(64, 8)).pow(2).mean()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    loss.backward()

print("gradient norm at each Linear's output, in the order the hooks fired:")
for name, (norm, no_input_grad) in grad_norms.items():
    print(f"  layer {name}: {norm:.4f}" + ("  (grad_input is None)" if no_input_grad else ""))
print("parameter gradient norms:")
for name, param in model.named_parameters():
    print(f"  {name:<8} {param.grad.norm().item():.4f}")
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")

for handle in handles:
    handle.remove()
