import warnings

import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
hidden = w * 3
hidden.retain_grad()
out = w * 3
loss = (hidden ** 2).sum() + out.sum()
loss.backward()

print("w.is_leaf:", w.is_leaf, "| w.grad:", w.grad)
print("hidden.is_leaf:", hidden.is_leaf, "| hidden.grad:", hidden.grad)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("out.grad:", out.grad)
print("UserWarning:", caught[0].message)

moved = torch.tensor([1.0, 2.0], requires_grad=True).to(torch.float64)
print("moved.is_leaf:", moved.is_leaf, "| moved.grad_fn:", type(moved.grad_fn).__name__)
layer = torch.nn.Linear(2, 3).to(torch.float64)
print("after layer.to(), layer.weight.is_leaf:", layer.weight.is_leaf)
