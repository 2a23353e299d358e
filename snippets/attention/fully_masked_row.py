import math

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
q, k, v = (t.requires_grad_() for t in torch.randn(3, 1, 1, 3, 4).unbind(0))
keep = torch.ones(3, 3, dtype=torch.bool)
keep[0] = False  # the first query may attend to nothing (a padding row)
has_key = keep.any(-1, keepdim=True)  # False for the padding row
additive = torch.zeros(3, 3).masked_fill(~keep, float("-inf"))


def hand_written(q, k, v, mask="masked_fill", zero_after=False, finite_before=False):
    scores = q @ k.transpose(-2, -1) / math.sqrt(4)
    scores = scores.masked_fill(~keep, float("-inf")) if mask == "masked_fill" else scores + additive
    if finite_before:
        scores = torch.where(has_key, scores, 0.0)  # no row of only -inf reaches the softmax
    weights = scores.softmax(-1)
    if zero_after:
        weights = torch.where(has_key, weights, 0.0)
    return weights @ v


def finite_gradients(out):
    for t in (q, k, v):
        t.grad = None
    out[0, 0][has_key[:, 0]].sum().backward()  # the padding row is left out of the loss
    return ", ".join(f"{name}.grad {torch.isfinite(t.grad).all().item()}" for name, t in (("q", q), ("k", k), ("v", v)))


out = hand_written(q, k, v)
print("hand-written, first row:", out[0, 0, 0].detach())
print("  finite gradients, loss without the padding row:", finite_gradients(out))
out = hand_written(q, k, v, zero_after=True)
print("masked_fill, weights of empty rows set to 0 after the softmax:", out[0, 0, 0].detach())
print("  finite gradients:", finite_gradients(out))
out = hand_written(q, k, v, mask="additive", zero_after=True)
print("additive mask, weights of empty rows set to 0 after the softmax:", out[0, 0, 0].detach())
print("  finite gradients:", finite_gradients(out))
out = hand_written(q, k, v, mask="additive", zero_after=True, finite_before=True)
print("additive mask, empty rows made finite before the softmax, zeroed after:", out[0, 0, 0].detach())
print("  finite gradients:", finite_gradients(out))
out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
print("SDPA, first row:", out[0, 0, 0].detach())
print("  finite gradients:", finite_gradients(out))
with sdpa_kernel(SDPBackend.MATH):
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
print("SDPA, math backend, first row:", out[0, 0, 0].detach())
print("  finite gradients:", finite_gradients(out))
