import torch
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.gradcheck import GradcheckError


class SwishSavesSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = torch.sigmoid(x)
        ctx.save_for_backward(x, s)
        return x * s

    @staticmethod
    def backward(ctx, grad_output):
        x, s = ctx.saved_tensors
        return grad_output * s * (1 + x * (1 - s))


torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
_, saved_s = SwishSavesSigmoid.apply(x).grad_fn.saved_tensors
print("saved s: requires_grad", saved_s.requires_grad, "| grad_fn", saved_s.grad_fn)
print("gradcheck:", gradcheck(SwishSavesSigmoid.apply, (x,)))
try:
    gradgradcheck(SwishSavesSigmoid.apply, (x,))
except GradcheckError as error:
    print("GradcheckError:", str(error).splitlines()[0])
