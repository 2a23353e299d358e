import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
q, k, v = torch.randn(3, 1, 2, 6, 8).unbind(0)
keep = torch.ones(6, 6, dtype=torch.bool).tril()  # True: this query may attend to this key
additive = torch.zeros(6, 6).masked_fill(~keep, float("-inf"))

causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
with_bool_mask = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
with_float_mask = F.scaled_dot_product_attention(q, k, v, attn_mask=additive)
print("is_causal == boolean mask:", torch.allclose(causal, with_bool_mask, atol=1e-6))
print("is_causal == additive -inf mask:", torch.allclose(causal, with_float_mask, atol=1e-6))
print("first query only sees the first key:", torch.allclose(causal[..., 0, :], v[..., 0, :]))

partial = torch.ones(6, 6, dtype=torch.bool)
partial[3:, 1] = False  # queries 3 to 5 may not see key 1 (a pair the causal mask allows)
both = F.scaled_dot_product_attention(q, k, v, attn_mask=partial, is_causal=True)
mask_and_causal = F.scaled_dot_product_attention(q, k, v, attn_mask=partial & keep)
print("mask and is_causal, default backend: runs, applies mask AND causal:",
      torch.allclose(both, mask_and_causal, atol=1e-6))
try:
    with sdpa_kernel(SDPBackend.MATH):
        F.scaled_dot_product_attention(q, k, v, attn_mask=partial, is_causal=True)
except RuntimeError as error:
    print("mask and is_causal, math backend: RuntimeError:", error)
