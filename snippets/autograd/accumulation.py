import torch

w = torch.tensor(1.0, requires_grad=True)

for step in range(3):
    loss = 2 * w
    loss.backward()
    print(f"after backward #{step + 1}: w.grad = {w.grad.item()}")

optimizer = torch.optim.SGD([w], lr=0.1)
optimizer.zero_grad()
print("after zero_grad():", w.grad)
