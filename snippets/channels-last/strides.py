import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5)  # (N, C, H, W)
y = x.to(memory_format=torch.channels_last)
print("shape:", tuple(y.shape), "(unchanged)")
print("strides, default (NCHW):     ", x.stride())
print("strides, channels_last (NHWC):", y.stride())
print("same values:", torch.equal(x, y), "| new storage:", x.data_ptr() != y.data_ptr())
print("is_contiguous():", y.is_contiguous(),
      "| is_contiguous(memory_format=torch.channels_last):", y.is_contiguous(memory_format=torch.channels_last))

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten(), nn.Linear(8 * 2 * 3, 4))
model = model.to(memory_format=torch.channels_last)
for name, parameter in model.named_parameters():
    print(f"{name:9} {tuple(parameter.shape)!s:14} strides {parameter.stride()}")

try:
    nn.Conv3d(3, 8, 3).to(memory_format=torch.channels_last)  # a 5-D weight
except RuntimeError as error:
    print("Conv3d to channels_last: RuntimeError:", error)
conv3d = nn.Conv3d(3, 8, 3).to(memory_format=torch.channels_last_3d)
print("Conv3d to channels_last_3d: weight strides", conv3d.weight.stride())

print("clone(), empty_like() of channels_last stay channels_last:",
      y.clone().is_contiguous(memory_format=torch.channels_last),
      torch.empty_like(y).is_contiguous(memory_format=torch.channels_last))
images = torch.rand(2, 4, 5, 3)  # (N, H, W, C), the order image decoders produce
batch = images.permute(0, 3, 1, 2)  # (N, C, H, W) by shape
print("(N, H, W, C) batch permuted to", tuple(batch.shape), "-> channels_last:",
      batch.is_contiguous(memory_format=torch.channels_last),
      "| after .contiguous():", batch.contiguous().is_contiguous(memory_format=torch.channels_last))
