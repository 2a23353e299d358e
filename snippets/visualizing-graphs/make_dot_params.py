# graph: graph
import torch
from torch import nn
from torchviz import make_dot

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(2, 3)
y = model(x)

graph = make_dot(y, params=dict(model.named_parameters()))
edges = [line for line in graph.body if "->" in line]
print(f"{type(graph).__name__}: {len(graph.body) - len(edges)} nodes, {len(edges)} edges")

first_linear, _ = y.grad_fn.next_functions[1][0].next_functions[0]
print(f"{type(first_linear).__name__} of layer 0 saved x as mat1:", first_linear._saved_mat1 is x)


def leaf_labels(digraph):
    lines = [line for line in digraph.body if "fillcolor=lightblue" in line]
    return sorted(" ".join(line.split('label="')[1].split('"')[0].split()) for line in lines)


print("leaves with params=:   ", leaf_labels(graph))
print("leaves without params=:", leaf_labels(make_dot(y)))
