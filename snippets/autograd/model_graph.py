# graph: dot
import torch
from torch import nn
from torchviz import make_dot

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x, target = torch.randn(8, 3), torch.randn(8, 1)
loss = nn.functional.mse_loss(model(x), target)

dot = make_dot(loss, params=dict(model.named_parameters()))

names = {param: name for name, param in model.named_parameters()}
data = {id(x): "x", id(target): "target"}


def saved_data(node):
    saved = {name.removeprefix("_saved_"): getattr(node, name) for name in dir(node) if name.startswith("_saved_")}
    found = [f"{data[id(value)]} as {name}" for name, value in saved.items() if id(value) in data]
    return f"  (saves {', '.join(found)})" if found else ""


def show(node, depth=0):
    leaf = getattr(node, "variable", None)
    label = type(node).__name__ + (f" -> {names[leaf]}" if leaf is not None else "")
    print("  " * depth + label + saved_data(node))
    for child, _ in node.next_functions:
        if child is not None:
            show(child, depth + 1)


show(loss.grad_fn)
