# marks: cpu_only
import torch
from torch import nn

if torch.cuda.device_count() >= 2:
    dev0, dev1 = torch.device("cuda:0"), torch.device("cuda:1")
else:
    dev0 = dev1 = torch.device("cpu")


class TwoDeviceModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.stage0 = nn.Sequential(nn.Linear(16, 32), nn.ReLU()).to(dev0)
        self.stage1 = nn.Linear(32, 4).to(dev1)

    def forward(self, x):
        hidden = self.stage0(x.to(dev0))
        return self.stage1(hidden.to(dev1))


torch.manual_seed(0)
model = TwoDeviceModel()
x, y = torch.randn(8, 16), torch.randn(8, 4)
loss = nn.functional.mse_loss(model(x), y.to(dev1))
loss.backward()
print("stage devices:", dev0, dev1, "(two GPUs)" if dev0 != dev1 else "(fallback: fewer than 2 GPUs)")
print("gradient of stage 0 on:", model.stage0[0].weight.grad.device)

torch.manual_seed(0)
single = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
same = torch.allclose(nn.functional.mse_loss(single(x), y), loss.cpu())
print("same loss as the one-device model:", same)
