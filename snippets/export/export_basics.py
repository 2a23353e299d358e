import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        print("forward runs on a", type(x).__name__)
        return torch.relu(self.fc(x)) * 2


torch.manual_seed(0)
model = Net().eval()
x = torch.randn(2, 4)
program = torch.export.export(model, (x,))
print(program)

print("same as eager:", torch.equal(program.module()(x), model(x)))
try:
    program.module()(torch.randn(5, 4))
except AssertionError as error:
    print("AssertionError:", error)
print("program holds the model's own weight:", program.state_dict["fc.weight"] is model.fc.weight)
