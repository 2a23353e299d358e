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

# Trimming is best-effort: only base needs a gradient, and only the exponent's
# gradient formula uses result, yet PowBackward1 saves result as well.
base = torch.rand(3, requires_grad=True)
exponent = torch.rand(3)
p = base.pow(exponent)
print("PowBackward1 saves:", sorted(n.removeprefix("_saved_") for n in dir(p.grad_fn) if n.startswith("_saved_")))

# backward() frees the saved tensors; reading them afterwards raises.
y.backward()
try:
    y.grad_fn.next_functions[0][0]._saved_result
except RuntimeError as error:
    print("after backward():", type(error).__name__, str(error).split(" (")[0])
