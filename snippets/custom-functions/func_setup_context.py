import torch
from torch.func import grad, vmap


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


x = torch.tensor([-1.0, 0.0, 2.0])
try:
    grad(lambda t: Swish.apply(t).sum())(x)
except RuntimeError as error:
    print("RuntimeError:", error)


class FuncSwish(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x):
        return x * torch.sigmoid(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad_output * s * (1 + x * (1 - s))


print("grad:", grad(lambda t: FuncSwish.apply(t).sum())(x))
print("vmap(grad):", vmap(grad(FuncSwish.apply))(x))
