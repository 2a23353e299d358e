import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")


def train_step(update):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = model(torch.randn(8, 4)).float().pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    if update:
        scaler.update()


try:
    for _ in range(2):
        train_step(update=False)
except RuntimeError as error:
    print("RuntimeError:", error)

scaler = torch.amp.GradScaler("cpu")
for _ in range(2):
    train_step(update=True)
print("two steps with update(): scale =", scaler.get_scale())
