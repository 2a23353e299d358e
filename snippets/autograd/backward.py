import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(2, 3)
x = torch.tensor([1.0, 2.0])
target = torch.tensor([1.0, 2.0, 3.0])

prediction = model(x)
loss = nn.functional.mse_loss(prediction, target)
loss.backward()

print("loss:", round(loss.item(), 4))
print("weight.grad:\n", model.weight.grad)
print("bias.grad:", model.bias.grad)

output = model(x)
try:
    output.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
model.zero_grad()
output.backward(gradient=torch.ones_like(output))
print("bias.grad after output.backward(ones):", model.bias.grad)
