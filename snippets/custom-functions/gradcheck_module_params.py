import torch
from torch import nn
from torch.autograd import gradcheck
from torch.autograd.gradcheck import GradcheckError
from torch.func import functional_call


class ScaleFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return x * weight

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        return grad_output * weight, (grad_output * x).mean(0)


class Scale(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features))

    def forward(self, x):
        return ScaleFunction.apply(x, self.weight)


torch.manual_seed(0)
model = Scale(3).double()
x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
print("gradcheck(model, x):", gradcheck(model, (x,)))


def gradcheck_with_parameters(module, x):
    names = [name for name, _ in module.named_parameters()]
    params = tuple(param.detach().requires_grad_() for _, param in module.named_parameters())

    def call(x, *params):
        return functional_call(module, dict(zip(names, params, strict=True)), (x,))

    return gradcheck(call, (x, *params))


print("nn.Linear, parameters included:", gradcheck_with_parameters(nn.Linear(3, 2).double(), x))
try:
    gradcheck_with_parameters(model, x)
except GradcheckError as error:
    print("Scale, parameters included: GradcheckError:", str(error).splitlines()[0])


class ScaleUnreduced(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight):
        ctx.save_for_backward(x, weight)
        return x * weight

    @staticmethod
    def backward(ctx, grad_output):
        x, weight = ctx.saved_tensors
        return grad_output * weight, grad_output * x  # shape (4, 3) for a weight of shape (3,)


weight = model.weight.detach().requires_grad_()
print("unreduced (4, 3) weight gradient:", gradcheck(ScaleUnreduced.apply, (x, weight)))
