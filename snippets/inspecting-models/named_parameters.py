import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU())
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        return self.head(self.body(x))


torch.manual_seed(0)
model = Net()

print("parameters:")
for name, param in model.named_parameters():
    print(f"  {name:<14} {tuple(param.shape)!s:<9} {param.dtype}  requires_grad={param.requires_grad}")

print("buffers:")
for name, buffer in model.named_buffers():
    print(f"  {name:<26} {tuple(buffer.shape)!s:<6} {buffer.dtype}")

print("modules:")
for name, module in model.named_modules():
    print(f"  {name or '(root)':<8} {type(module).__name__}")
