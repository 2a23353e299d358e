import torch
from torch import nn
from torch._dynamo.utils import counters


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(8, 8)

    def forward(self, x):
        return torch.relu(self.linear(x))


def graphs_compiled(compile_it):
    torch._dynamo.reset()
    counters.clear()
    compile_it()(torch.randn(2, 8))
    return counters["stats"]["unique_graphs"]


def sequential():
    return nn.Sequential(nn.Linear(8, 8), nn.ReLU())


def compiled_in_place(module):
    module.compile(backend="eager")
    return module


print("torch.compile(nn.Sequential(...)):", graphs_compiled(lambda: torch.compile(sequential(), backend="eager")))
print("nn.Sequential(...).compile():     ", graphs_compiled(lambda: compiled_in_place(sequential())))
print("Block().compile():                ", graphs_compiled(lambda: compiled_in_place(Block())))
