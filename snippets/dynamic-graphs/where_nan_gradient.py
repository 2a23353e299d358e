import torch

x = torch.tensor([-1.0, 4.0], requires_grad=True)

y = torch.where(x > 0, x.sqrt(), 0.0)
y.sum().backward()
print("y:", y.detach(), "| x.grad:", x.grad)

x.grad = None
safe_x = torch.where(x > 0, x, 1.0)
y = torch.where(x > 0, safe_x.sqrt(), 0.0)
y.sum().backward()
print("y:", y.detach(), "| x.grad:", x.grad)
