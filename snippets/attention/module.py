import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, heads, dropout):
        super().__init__()
        self.heads, self.dropout = heads, dropout
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        batch, length, dim = x.shape
        q, k, v = self.qkv(x).view(batch, length, 3, self.heads, dim // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(
            q, k, v, is_causal=True, dropout_p=self.dropout if self.training else 0.0
        )
        return self.out(y.transpose(1, 2).reshape(batch, length, dim))


block = CausalSelfAttention(dim=64, heads=4, dropout=0.1).eval()
x = torch.randn(2, 10, 64)
print("output shape:", tuple(block(x).shape))
print("eval: two calls equal:", torch.equal(block(x), block(x)))

q = k = v = torch.randn(1, 4, 10, 16)
a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)
b = F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)
print("dropout_p=0.1 passed unconditionally, two calls equal:", torch.equal(a, b))
