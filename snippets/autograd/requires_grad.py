import torch

w = torch.tensor([2.0, -1.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])

y = (w * x).sum()

print("w:", w.requires_grad, w.is_leaf, w.grad_fn)
print("x:", x.requires_grad, x.is_leaf, x.grad_fn)
print("y:", y.requires_grad, y.is_leaf, type(y.grad_fn).__name__)

mul, _ = y.grad_fn.next_functions[0]
inputs = [node if node is None else type(node).__name__ for node, _ in mul.next_functions]
print(f"{type(mul).__name__} inputs:", inputs)
print(f"{type(mul).__name__} saved: self={mul._saved_self}, other is x: {mul._saved_other is x}")

with torch.no_grad():
    unrecorded = w * x
print("w > 0:", (w > 0).requires_grad, "| w.argmax():", w.argmax().requires_grad,
      "| w * x under no_grad():", unrecorded.requires_grad)
