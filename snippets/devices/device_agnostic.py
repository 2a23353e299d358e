import torch
from torch import nn

device = torch.accelerator.current_accelerator(check_available=True) or torch.device("cpu")

torch.manual_seed(0)
model = nn.Linear(8, 2).to(device)
x = torch.randn(4, 8, device=device)
y = model(x)

print("parameters on the chosen device:", next(model.parameters()).device.type == device.type)
print("output on the chosen device:", y.device.type == device.type)
print("output shape:", tuple(y.shape))
