import torch
from torch import nn

model = nn.Linear(2, 2)
weight = model.weight
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.ones(2)

x.to(torch.float64)
model.to(torch.float64)
print("tensor after x.to(...):  ", x.dtype)
print("module after model.to(...):", model.weight.dtype)

x = x.to(torch.float64)
print("tensor after x = x.to(...):", x.dtype)
print("x.to(the dtype it has) is x:", x.to(torch.float64) is x)
print("x.to(the dtype it has, copy=True) is x:", x.to(torch.float64, copy=True) is x)
print("model.weight after model.to(...) is the same Parameter:", model.weight is weight)
print("the optimizer still holds it:", optimizer.param_groups[0]["params"][0] is model.weight)
