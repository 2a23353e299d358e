import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
names = {id(p): name for name, p in model.named_parameters()}
y = model(torch.randn(2, 3))


def show(node, depth=0, seen=None):
    seen = set() if seen is None else seen
    label = type(node).__name__
    if hasattr(node, "variable"):
        label += f" ({names.get(id(node.variable), tuple(node.variable.shape))})"
    if node in seen:  # a node reached by a second path: print it once, then refer back
        print("    " * depth + label + " (seen above)")
        return
    seen.add(node)
    print("    " * depth + label)
    for next_node, _ in node.next_functions:
        if next_node is not None:
            show(next_node, depth + 1, seen)


show(y.grad_fn)

print("--- a residual connection: h is used twice")
h = model[0](torch.randn(2, 3))
show((h + h.relu()).grad_fn)
