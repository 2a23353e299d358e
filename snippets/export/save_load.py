import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        return torch.relu(self.fc(x)) * 2


torch.manual_seed(0)
model = Net().eval()
x = torch.randn(2, 4)
expected = model(x)
torch.export.save(torch.export.export(model, (x,)), "net.pt2")

del Net, model  # loading needs neither the class nor the instance
loaded = torch.export.load("net.pt2")
print(type(loaded).__name__, "| inputs:", [spec.arg.name for spec in loaded.graph_signature.input_specs])
print("same output:", torch.equal(loaded.module()(x), expected))
