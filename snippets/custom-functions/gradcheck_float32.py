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

print("float32: 1 + 1e-6 =", (torch.tensor(1.0) + 1e-6).item())
print("float64: 1 + 1e-6 =", (torch.tensor(1.0, dtype=torch.float64) + 1e-6).item())

model = model.double()
input = input.detach().double().requires_grad_()
print("float64 gradcheck:", gradcheck(model, input, eps=1e-6, atol=1e-4))
