import torch
from torch import nn

model = nn.Linear(2, 2)
x = torch.ones(2)

x.to(torch.float64)
model.to(torch.float64)
print("tensor after x.to(...):  ", x.dtype)
print("module after model.to(...):", model.weight.dtype)

x = x.to(torch.float64)
print("tensor after x = x.to(...):", x.dtype)
print("x.to(the dtype it has) is x:", x.to(torch.float64) is x)
