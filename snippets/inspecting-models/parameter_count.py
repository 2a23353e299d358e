import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 1024), nn.BatchNorm1d(1024), nn.ReLU(), nn.Linear(1024, 10))


def count(tensors):
    return sum(t.numel() for t in tensors)


def size_bytes(tensors):
    return sum(t.numel() * t.element_size() for t in tensors)


params = list(model.parameters())
model[0].requires_grad_(False)
print(f"parameters: {count(params):,}")
print(f"trainable:  {count(p for p in params if p.requires_grad):,}")
print(f"buffers:    {count(model.buffers()):,}")
print(f"parameter bytes (float32):  {size_bytes(params):,}")

model.to(torch.bfloat16)
print(f"parameter bytes (bfloat16): {size_bytes(model.parameters()):,}")
print(f"buffer dtypes after .to(bfloat16): {sorted({str(b.dtype) for b in model.buffers()})}")
