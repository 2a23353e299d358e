import numpy as np
import torch
from torch import Tensor


@torch.library.custom_op("mylib::interp", mutates_args=())
def interp(x: Tensor, xp: Tensor, fp: Tensor) -> Tensor:
    return torch.from_numpy(np.interp(x.numpy(force=True), xp.numpy(force=True), fp.numpy(force=True))).to(x.dtype)


@interp.register_fake
def _(x, xp, fp):
    return torch.empty_like(xp)  # wrong: the output has the shape of x


xp, fp = torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 10.0, 0.0])
x = torch.tensor([0.1, 0.4, 0.7, 1.5])
try:
    torch.library.opcheck(interp, (x, xp, fp), test_utils="test_faketensor")
except Exception as error:
    print(f"{type(error).__name__}:", str(error).splitlines()[0])
