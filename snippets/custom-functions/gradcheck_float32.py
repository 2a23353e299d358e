import math
import warnings

import torch
from torch import nn
from torch.autograd import gradcheck
from torch.autograd.gradcheck import GradcheckError

torch.manual_seed(0)
model = nn.Linear(3, 2)
input = torch.randn(1, 3, requires_grad=True)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        gradcheck(model, input, eps=1e-6, atol=1e-4)
    except GradcheckError as error:
        print("GradcheckError:", str(error).splitlines()[0])
print("UserWarning:", str(caught[0].message).strip())

eps = 1e-6
with torch.no_grad():
    columns = [(model(input + eps * e) - model(input - eps * e)).squeeze(0) / (2 * eps) for e in torch.eye(3)]
    numerical = torch.stack(columns)
    difference = (numerical - model.weight.T).abs().max().item()
print("largest |numerical - analytical|, to the nearest power of ten:", f"1e{round(math.log10(difference))}")

print("float32: 1 + 1e-6 =", (torch.tensor(1.0) + 1e-6).item())
print("float64: 1 + 1e-6 =", (torch.tensor(1.0, dtype=torch.float64) + 1e-6).item())

model = model.double()
input = input.detach().double().requires_grad_()
print("float64 gradcheck:", gradcheck(model, input, eps=1e-6, atol=1e-4))
