import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 4))
activations = {}


def save_output(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()

    return hook


handles = [
    module.register_forward_hook(save_output(name))
    for name, module in model.named_modules()
    if isinstance(module, nn.ReLU)
]
model(torch.randn(64, 8))

for name, out in activations.items():
    sparsity = (out == 0).float().mean().item()
    dead = (out == 0).all(dim=0).sum().item()
    print(f"layer {name}: shape {tuple(out.shape)}, mean {out.mean().item():.3f}, zeros {sparsity:.0%},",
          f"dead units {dead} of {out.shape[1]}")

for handle in handles:
    handle.remove()
activations.clear()
model(torch.randn(64, 8))
print("after remove():", len(activations), "activations captured")
