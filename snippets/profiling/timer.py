import torch
from torch.utils import benchmark

torch.manual_seed(0)
x = torch.randn(256, 256)

timer = benchmark.Timer("x @ x", globals={"x": x}, label="matmul", sub_label="256x256", description="x @ x")
print(timer.timeit(100))
