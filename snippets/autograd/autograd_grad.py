import torch

x = torch.tensor(3.0, requires_grad=True)
y = x ** 3

(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
(d2y_dx2,) = torch.autograd.grad(dy_dx, x)

print("dy/dx   =", dy_dx.item())
print("d2y/dx2 =", d2y_dx2.item())
print("x.grad  =", x.grad)
