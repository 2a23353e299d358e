import torch
from torch.autograd import gradcheck, gradgradcheck


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad_output * s * (1 + x * (1 - s))


torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
print("gradcheck:", gradcheck(Swish.apply, (x,)))
print("gradgradcheck:", gradgradcheck(Swish.apply, (x,)))
