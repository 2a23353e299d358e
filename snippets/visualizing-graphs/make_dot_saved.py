# graph: graph
import torch
from torchviz import make_dot

torch.manual_seed(0)
x = torch.randn(3)
w = torch.randn(3, requires_grad=True)
y = torch.sigmoid(x * w).sum()

graph = make_dot(y, params={"w": w}, show_attrs=True, show_saved=True)


def describe(value):
    if value is x:
        return "x"
    return f"tensor{tuple(value.shape)}" if isinstance(value, torch.Tensor) else repr(value)


node = y.grad_fn
while node is not None:
    saved = [f"{name.removeprefix('_saved_')}={describe(getattr(node, name))}"
             for name in dir(node) if name.startswith("_saved_")]
    print(f"{type(node).__name__}:", ", ".join(saved))
    node = node.next_functions[0][0] if node.next_functions else None
