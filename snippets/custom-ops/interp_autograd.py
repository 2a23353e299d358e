import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("mylib::interp", mutates_args=())
def interp(x: Tensor, xp: Tensor, fp: Tensor) -> Tensor:
    y = np.interp(x.numpy(force=True), xp.numpy(force=True), fp.numpy(force=True))
    return torch.from_numpy(y).to(device=x.device, dtype=x.dtype)


@interp.register_fake
def _(x, xp, fp):
    return x.new_empty(x.shape)


def setup_context(ctx, inputs, output):
    x, xp, fp = inputs
    ctx.save_for_backward(x, xp, fp)


def backward(ctx, grad):
    if ctx.needs_input_grad[1] or ctx.needs_input_grad[2]:
        raise NotImplementedError("interp: no gradient for the points xp, fp")
    x, xp, fp = ctx.saved_tensors
    right = torch.searchsorted(xp, x.contiguous()).clamp(1, len(xp) - 1)
    slope = (fp[right] - fp[right - 1]) / (xp[right] - xp[right - 1])
    inside = (x >= xp[0]) & (x <= xp[-1])  # np.interp is flat outside [xp[0], xp[-1]]
    return grad * slope * inside, None, None


interp.register_autograd(backward, setup_context=setup_context)

xp, fp = torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 10.0, 0.0])
x = torch.tensor([0.1, 0.4, 0.7], requires_grad=True)
compiled = torch.compile(lambda x: interp(x * 2, xp, fp) + 1, backend="aot_eager", fullgraph=True)
compiled(x).sum().backward()
print("gradient through the compiled function:", x.grad.tolist())
torch._dynamo.reset()

x64 = torch.tensor([-0.5, 0.1, 0.4, 0.7, 1.3, 2.5], dtype=torch.float64, requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(interp, (x64, xp.double(), fp.double())))
xt = torch.linspace(-0.5, 2.5, 12).reshape(3, 4).t().requires_grad_()  # 2-D, transposed
for sample in (x, xt):
    for name, result in torch.library.opcheck(interp, (sample, xp, fp)).items():
        print(f"opcheck, x of shape {tuple(sample.shape)}, {name}: {result}")
