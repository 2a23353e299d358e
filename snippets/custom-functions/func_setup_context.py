import torch
from torch.autograd import gradcheck
from torch.func import grad, hessian, jacfwd, vmap


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
print("gradcheck:", gradcheck(FuncSwish.apply, (x.double().requires_grad_(),)))
try:
    jacfwd(FuncSwish.apply)(x)
except NotImplementedError as error:
    print("jacfwd: NotImplementedError:", error)


class FuncSwishJvp(FuncSwish):
    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def jvp(ctx, x_tangent):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return x_tangent * s * (1 + x * (1 - s))


print("hessian with a jvp:", hessian(lambda t: FuncSwishJvp.apply(t).sum())(x).diagonal())
print("hessian of x * sigmoid(x):", hessian(lambda t: (t * torch.sigmoid(t)).sum())(x).diagonal())
print("gradcheck(check_forward_ad=True):",
      gradcheck(FuncSwishJvp.apply, (x.double().requires_grad_(),), check_forward_ad=True))
