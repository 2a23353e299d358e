# graph: graph_a graph_b
import torch
from torchviz import make_dot


def forward(x, w):
    h = x * w
    if h.sum() > 0:
        h = torch.sigmoid(h)
        branch = "sigmoid"
    else:
        h = torch.tanh(h)
        branch = "tanh"
    doublings = 0
    while h.abs().sum() < 3:
        h = h * 2
        doublings += 1
    print(f"x={x.tolist()}: {branch}, {doublings} doubling(s)")
    return h.sum()


w = torch.tensor([1.0, 2.0], requires_grad=True)

loss_a = forward(torch.tensor([0.25, 0.25]), w)
loss_b = forward(torch.tensor([-3.0, -1.0]), w)

graph_a = make_dot(loss_a, params={"w": w})
graph_b = make_dot(loss_b, params={"w": w})

h = torch.tensor([0.25, 0.25]) * w
print("h.sum():", type(h.sum().grad_fn).__name__, "| h.sum() > 0:", (h.sum() > 0).grad_fn)
