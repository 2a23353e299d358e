import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
backbone, head = model[0], model[2]

backbone.requires_grad_(False)
trainable = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(trainable, lr=0.1)
print("trainable tensors:", len(trainable), "of", len(list(model.parameters())))

before = backbone.weight.clone()
loss = model(torch.randn(32, 8)).pow(2).mean()
loss.backward()
optimizer.step()

print("backbone.weight.grad:", backbone.weight.grad)
print("head.weight.grad is set:", head.weight.grad is not None)
print("backbone unchanged:", torch.equal(before, backbone.weight))
print("backbone output grad_fn:", backbone(torch.randn(32, 8)).grad_fn)
