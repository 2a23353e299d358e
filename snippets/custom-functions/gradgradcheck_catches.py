import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck
from torch.autograd.function import once_differentiable
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


class SwishOnce(SwishSavesSigmoid):
    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, s = ctx.saved_tensors
        return grad_output * s * (1 + x * (1 - s))


def penalty_grad(activation):
    w = torch.ones(5, dtype=torch.float64, requires_grad=True)
    out = activation(x * w).sum()
    (gx,) = torch.autograd.grad(out, x, grad_outputs=torch.ones_like(out), create_graph=True)
    gx.pow(2).sum().backward()
    return w.grad


print("gradient penalty, once_differentiable: no error, matches F.silu:",
      torch.allclose(penalty_grad(SwishOnce.apply), penalty_grad(F.silu)))
gx, = torch.autograd.grad(SwishOnce.apply(x), x, torch.ones_like(x, requires_grad=True), create_graph=True)
try:
    gx.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
