import torch

w = torch.tensor([2.0, -1.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])

y = (w * x).sum()

print("w:", w.requires_grad, w.is_leaf, w.grad_fn)
print("x:", x.requires_grad, x.is_leaf, x.grad_fn)
print("y:", y.requires_grad, y.is_leaf, type(y.grad_fn).__name__)
