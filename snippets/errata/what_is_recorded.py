import torch

x = torch.tensor([1.0, 2.0])
h = (x * 2).exp()
print("h = (x * 2).exp(): requires_grad", h.requires_grad, "| grad_fn", h.grad_fn)

w = torch.tensor([0.5, -1.0], requires_grad=True)
y = (h * w).sum()
inputs = {id(w): "w"}


def show(node, depth=0):
    leaf = getattr(node, "variable", None)
    print("  " * depth + type(node).__name__ + (f" <- {inputs[id(leaf)]}" if leaf is not None else ""))
    for child, _ in node.next_functions:
        if child is None:
            print("  " * (depth + 1) + "None <- h")
        else:
            show(child, depth + 1)


print("y = (h * w).sum(), walked back from y.grad_fn:")
show(y.grad_fn)
