import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
frozen = w.detach()
print("frozen.requires_grad:", frozen.requires_grad)

loss = (w * frozen).sum()
loss.backward()
print("w.grad:", w.grad)

with torch.no_grad():
    w.add_(1.0)
print("frozen shares w's storage:", frozen)
