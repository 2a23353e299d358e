# marks: cuda
# estimate: 15
import torch
from torch import nn

torch.manual_seed(0)
device = "cuda"
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cuda")
x, y = torch.randn(64, 16, device=device), torch.randn(64, 1, device=device)

for step in range(3):
    optimizer.zero_grad()
    with torch.autocast("cuda", dtype=torch.float16):
        loss = nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    print(f"step {step}: loss {loss.item():.3f}, scale {scaler.get_scale():.0f}")

print("loss:", loss.dtype, "| gradients:", model[0].weight.grad.dtype)
