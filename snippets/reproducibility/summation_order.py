import torch

print("(0.1 + 0.2) + 0.3 == 0.1 + (0.2 + 0.3):", (0.1 + 0.2) + 0.3 == 0.1 + (0.2 + 0.3))

torch.manual_seed(0)
x = torch.randn(1_000_000)
print("same numbers, reversed order, same float32 sum:", torch.equal(x.sum(), x.flip(0).sum()))
print("float32 sum equals float64 sum rounded to float32:", torch.equal(x.sum(), x.double().sum().float()))
