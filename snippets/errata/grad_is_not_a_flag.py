import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([3.0, 4.0])
print("before backward: w.requires_grad =", w.requires_grad, "| w.grad =", w.grad)

(w * x).sum().backward()
print("after backward:  w.requires_grad =", w.requires_grad, "| w.grad =", w.grad)
print("x.requires_grad =", x.requires_grad, "| x.grad =", x.grad)
