import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 1)

with torch.inference_mode():
    features = torch.randn(8, 4) * 2

print("is_inference:", features.is_inference())
try:
    loss = model(features).pow(2).mean()
    loss.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

try:
    features.add_(1)
except RuntimeError as error:
    print("RuntimeError:", error)

try:
    features.requires_grad_()
except RuntimeError as error:
    print("RuntimeError:", error)

# An op that does not save it for backward still accepts it: the gradient of + needs no input.
(model.bias + features).sum().backward()
print("bias + features, backward ok:", model.bias.grad)
model.zero_grad()

features = features.clone()
print("after clone():", features.is_inference())
loss = model(features).pow(2).mean()
loss.backward()
print("backward ok:", model.weight.grad.shape)
