import torch
from torch import nn
from torchviz import make_dot

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
y = model(torch.randn(2, 3))
graph = make_dot(y, params=dict(model.named_parameters()))


def label(node_line):
    text = node_line.split("label=")[1].split(" fillcolor")[0]
    return " ".join(text.strip('"]\n ').split())


print("forward modules:", [type(module).__name__ for module in model])
print("boxes drawn:", [label(line) for line in graph.body if "->" not in line])
