import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

torch.manual_seed(0)
q, k, v = torch.randn(3, 1, 2, 5, 8).unbind(0)
last_query = q[..., -1:, :]  # decoding: one new query against all five cached keys

full = F.scaled_dot_product_attention(q, k, v, is_causal=True)[..., -1:, :]
top_left = F.scaled_dot_product_attention(last_query, k, v, is_causal=True)
lower_right = F.scaled_dot_product_attention(last_query, k, v, attn_mask=causal_lower_right(1, 5))
print("is_causal with 1 query, 5 keys == only the first key:", torch.allclose(top_left, v[..., :1, :]))
print("is_causal with 1 query, 5 keys == last row of full causal:", torch.allclose(top_left, full, atol=1e-6))
print("causal_lower_right == last row of full causal:", torch.allclose(lower_right, full, atol=1e-6))
