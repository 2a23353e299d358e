import torch

x = torch.tensor(2.0, requires_grad=True)
y = x.exp() * x

y.backward(retain_graph=True)
print("first backward:", round(x.grad.item(), 4))
y.backward()
print("second backward (accumulated):", round(x.grad.item(), 4))

z = x.exp() * x
z.backward()
try:
    z.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
