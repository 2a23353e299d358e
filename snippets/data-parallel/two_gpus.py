# marks: multi_gpu
# estimate: 15
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(8, 2).to("cuda:0")
calls = []
model.register_forward_hook(lambda module, args, output: calls.append((str(args[0].device), tuple(args[0].shape))))

dp = nn.DataParallel(model, device_ids=[0, 1])
y = dp(torch.randn(6, 8, device="cuda:0"))
print("device_ids:", dp.device_ids)
print("replica calls (device, input shape):", sorted(calls))
print("gathered output:", y.device, tuple(y.shape))
