import torch
from torch import nn

torch.manual_seed(0)
lin = nn.Linear(2, 3)
x = torch.tensor([1.0, 2.0])

try:
    y = x.mm(lin.weight.t()) + lin.bias
except RuntimeError as error:
    print("RuntimeError:", error)

y = x @ lin.weight.T + lin.bias
print("x @ W.T + b:", y.shape)
print("same as lin(x):", torch.allclose(y, lin(x)))
