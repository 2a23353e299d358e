import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 8)
w = torch.randn(8, 8)
target = torch.randint(0, 8, (4,))

with torch.autocast("cpu", dtype=torch.bfloat16):
    h = x @ w
    results = {
        "x @ w": h,
        "F.linear(x, w)": F.linear(x, w),
        "h.softmax(-1)": h.softmax(-1),
        "h.exp()": h.exp(),
        "h.sum()": h.sum(),
        "h.prod()": h.prod(),
        "F.mse_loss(h, x)": F.mse_loss(h, x),
        "F.cross_entropy(h, target)": F.cross_entropy(h, target),
        "h + x": h + x,
    }

for name, value in results.items():
    print(f"{name:<28} {value.dtype}")
print(f"{'x @ w (outside autocast)':<28} {(x @ w).dtype}")
print("default autocast dtype: cpu", torch.get_autocast_dtype("cpu"), "| cuda", torch.get_autocast_dtype("cuda"))
