import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 16), torch.randn(64, 1)

for step in range(3):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        prediction = model(x)
        loss = nn.functional.mse_loss(prediction, y)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.3f}")

print("prediction:", prediction.dtype, "| loss:", loss.dtype)
print("weights:", model[0].weight.dtype, "| gradients:", model[0].weight.grad.dtype)
