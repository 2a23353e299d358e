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
