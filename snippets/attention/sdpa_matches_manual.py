import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
q, k, v = torch.randn(3, 2, 4, 128, 64).unbind(0)  # (batch, heads, sequence length, head dim)


def attention(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return scores.softmax(dim=-1) @ v


expected = attention(q, k, v)
out = F.scaled_dot_product_attention(q, k, v)
difference = (out - expected).abs().max().item()
print("output shape:", tuple(out.shape))
print(f"max |difference| is of the order of 1e{math.floor(math.log10(difference))}")
torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5)
print("equal within rtol=1e-5, atol=1e-5")

k2, v2 = k[:, :2], v[:, :2]  # grouped-query attention: 2 key/value heads for the 4 query heads
out = F.scaled_dot_product_attention(q, k2, v2, enable_gqa=True)
shared = attention(q, k2.repeat_interleave(2, dim=1), v2.repeat_interleave(2, dim=1))
print("enable_gqa=True equals each key/value head repeated for 2 query heads:",
      torch.allclose(out, shared, rtol=1e-5, atol=1e-5))
