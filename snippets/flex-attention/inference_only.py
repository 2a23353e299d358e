import warnings

import torch
from torch.nn.attention.flex_attention import flex_attention

warnings.filterwarnings("ignore", message="flex_attention called without torch.compile")  # shown by mods.py
torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 256, 64) for _ in range(3))
q.requires_grad_(True)


def attempt(label, attention, *inputs):
    try:
        print(f"{label}: runs, output {tuple(attention(*inputs).shape)}")
    except NotImplementedError as error:
        print(f"{label}: NotImplementedError: {error}")


attempt("eager, q.requires_grad=True", flex_attention, q, k, v)
attempt("torch.compile, q.requires_grad=True", torch.compile(flex_attention), q, k, v)
with torch.no_grad():
    attempt("eager, q.requires_grad=True under torch.no_grad()", flex_attention, q, k, v)
attempt("eager, q.detach()", flex_attention, q.detach(), k, v)
