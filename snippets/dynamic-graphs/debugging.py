import traceback

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.fc2 = nn.Linear(4, 2)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        print("x:", tuple(x.shape), "-> h:", tuple(h.shape))
        return self.fc2(h)


torch.manual_seed(0)
try:
    Net()(torch.randn(5, 4))
except RuntimeError as error:
    print("RuntimeError:", error)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == __file__]
    print("traceback, last line of this file:", frames[-1].line)
