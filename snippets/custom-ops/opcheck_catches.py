import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("mylib::interp", mutates_args=())
def interp(x: Tensor, xp: Tensor, fp: Tensor) -> Tensor:
    y = np.interp(x.numpy(force=True), xp.numpy(force=True), fp.numpy(force=True))
    return torch.from_numpy(y).to(device=x.device, dtype=x.dtype)


@interp.register_fake
def _(x, xp, fp):
    return torch.empty_like(xp)  # wrong: the output has the shape of x


@torch.library.custom_op("mylib::interp_strided", mutates_args=())
def interp_strided(x: Tensor, xp: Tensor, fp: Tensor) -> Tensor:
    y = np.interp(x.numpy(force=True), xp.numpy(force=True), fp.numpy(force=True))
    return torch.from_numpy(y).to(device=x.device, dtype=x.dtype)


@interp_strided.register_fake
def _(x, xp, fp):
    return torch.empty_like(x)  # wrong for a transposed x: np.interp returns a contiguous array


xp, fp = torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 10.0, 0.0])
x = torch.tensor([0.1, 0.4, 0.7, 1.5])
xt = torch.linspace(0, 2, 12).reshape(3, 4).t()
for op, sample in [(interp, x), (interp_strided, x), (interp_strided, xt)]:
    try:
        torch.library.opcheck(op, (sample, xp, fp), test_utils="test_faketensor")
        print(f"{op._name}, x of shape {tuple(sample.shape)}: SUCCESS")
    except Exception as error:
        print(f"{op._name}, x of shape {tuple(sample.shape)}: {type(error).__name__}:", str(error).splitlines()[0])

flat = torch.compile(lambda x: interp_strided(x, xp, fp).view(-1), backend="aot_eager", fullgraph=True)
print("eager .view(-1):", interp_strided(xt, xp, fp).view(-1).shape)
try:
    flat(xt)
except torch._dynamo.exc.TorchRuntimeError as error:
    message = next(line for line in str(error).splitlines() if "Cannot view" in line)
    print("compiled .view(-1): TorchRuntimeError:", message.split("got ")[-1])
