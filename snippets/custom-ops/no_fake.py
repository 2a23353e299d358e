import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("mylib::interp", mutates_args=())
def interp(x: Tensor, xp: Tensor, fp: Tensor) -> Tensor:
    y = np.interp(x.numpy(force=True), xp.numpy(force=True), fp.numpy(force=True))
    return torch.from_numpy(y).to(device=x.device, dtype=x.dtype)


def scaled_interp(x, xp, fp):
    return interp(x * 2, xp, fp) + 1


xp, fp = torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 10.0, 0.0])
x = torch.tensor([0.1, 0.4, 0.7], requires_grad=True)
print("eager:", scaled_interp(x, xp, fp).tolist())

try:
    torch.compile(scaled_interp, backend="aot_eager")(x, xp, fp)
except torch._dynamo.exc.TorchRuntimeError as error:
    print("TorchRuntimeError:", next(line.strip() for line in str(error).splitlines() if "no fake impl" in line))

try:
    scaled_interp(x, xp, fp).sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
