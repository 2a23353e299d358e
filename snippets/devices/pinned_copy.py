# marks: cuda
# estimate: 15
import torch

batch = torch.randn(1024, 1024)
pinned = batch.pin_memory()
print("pageable is_pinned:", batch.is_pinned())
print("pinned is_pinned:", pinned.is_pinned())

on_gpu = pinned.to("cuda", non_blocking=True)
result = (on_gpu * 2).sum()
torch.cuda.synchronize()
print("same values:", torch.equal(on_gpu.cpu(), batch))
print("result device:", result.device)
