import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
names = {id(p): name for name, p in model.named_parameters()}
y = model(torch.randn(2, 3))


def show(node, depth=0):
    label = type(node).__name__
    if hasattr(node, "variable"):
        label += f" ({names[id(node.variable)]})"
    print("    " * depth + label)
    for next_node, _ in node.next_functions:
        if next_node is not None:
            show(next_node, depth + 1)


show(y.grad_fn)
