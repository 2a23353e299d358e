import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
out = w.sigmoid()
print("out._version before:", out._version)
out.mul_(2)
print("out._version after mul_:", out._version)
try:
    out.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

out = w.sigmoid()
out.detach().zero_()
print("out._version after out.detach().zero_():", out._version)
try:
    out.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

a = w * 2
y = (a * w).sum()  # the multiplication saves its input a
a.add_(1)  # recorded: a's grad_fn is now this add
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

out = w.sigmoid()
out.data.zero_()
print("out._version after out.data.zero_():", out._version)
out.sum().backward()
print("no error, but w.grad:", w.grad)

w.grad = None
w.sigmoid().sum().backward()
print("the same graph unchanged, w.grad:", w.grad)

w.grad = None
out = w.sigmoid() * 2
out.sum().backward()
print("out of place, w.grad:", w.grad)
