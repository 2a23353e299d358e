# graph: graph
import torch
import torch.nn.functional as F
from torchviz import make_dot


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
x = torch.randn(4, requires_grad=True)
y = Swish.apply(x)
y.sum().backward()
print("grad_fn:", type(y.grad_fn).__name__)
print("x.grad:", x.grad)

x_ref = x.detach().clone().requires_grad_()
F.silu(x_ref).sum().backward()
print("matches F.silu:", torch.allclose(y, F.silu(x_ref)), torch.allclose(x.grad, x_ref.grad))

graph = make_dot(Swish.apply(x).sum(), params={"x": x})
