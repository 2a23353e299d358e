import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
q, k, v = torch.randn(3, 1, 1, 3, 4).unbind(0)
keep = torch.ones(3, 3, dtype=torch.bool)
keep[0] = False  # the first query may attend to nothing (a padding row)

scores = (q @ k.transpose(-2, -1) / math.sqrt(4)).masked_fill(~keep, float("-inf"))
print("hand-written, first row:", (scores.softmax(-1) @ v)[0, 0, 0])
print("SDPA, first row:        ", F.scaled_dot_product_attention(q, k, v, attn_mask=keep)[0, 0, 0])
