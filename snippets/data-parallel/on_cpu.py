# marks: cpu_only
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(8, 2)
calls = []
model.register_forward_hook(lambda module, args, output: calls.append(tuple(args[0].shape)))

dp = nn.DataParallel(model)
x = torch.randn(6, 8)
y = dp(x)
print("CUDA devices:", torch.cuda.device_count(), "| device_ids:", dp.device_ids)
print("calls of the wrapped module (input shapes):", calls)
print("same as model(x):", torch.equal(y, model(x)))
print("state_dict keys:", list(dp.state_dict()))
