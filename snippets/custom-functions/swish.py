# graph: graph
import torch
import torch.nn.functional as F
from torchviz import make_dot


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.inside = (torch.is_grad_enabled(), x.requires_grad)  # a plain attribute, not a tensor
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
grad_mode, requires_grad = y.grad_fn.inside
print("inside forward: grad mode", grad_mode, "| x.requires_grad", requires_grad)
print("x.grad:", x.grad)

x_ref = x.detach().clone().requires_grad_()
F.silu(x_ref).sum().backward()
print("matches F.silu:", torch.allclose(y, F.silu(x_ref)), torch.allclose(x.grad, x_ref.grad))



def kept_for_backward(f):
    saved = set()
    with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.add(t.data_ptr()) or t, lambda t: t):
        f(x)
    return len(saved)


print("tensors kept for backward: Swish.apply", kept_for_backward(Swish.apply),
      "| x * torch.sigmoid(x)", kept_for_backward(lambda t: t * torch.sigmoid(t)))

w = torch.tensor([0.3, 1.7], requires_grad=True)
rounded = w + (w.round() - w).detach()  # straight-through estimator, no Function needed
rounded.sum().backward()
print("straight-through: forward", rounded.tolist(), "| grad", w.grad.tolist())

graph = make_dot(Swish.apply(x).sum(), params={"x": x})
