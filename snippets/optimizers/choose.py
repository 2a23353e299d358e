import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 4)
model(torch.randn(2, 4)).sum().backward()
for optimizer_class in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.Adagrad,
                        torch.optim.RMSprop, torch.optim.NAdam):
    try:
        optimizer_class(model.parameters(), lr=0.01, fused=True).step()
        print(f"{optimizer_class.__name__:8} fused=True on the CPU: runs")
    except (RuntimeError, TypeError) as error:
        print(f"{optimizer_class.__name__:8} fused=True on the CPU: {type(error).__name__}: {error}")

try:
    torch.optim.AdamW(model.parameters(), foreach=True, fused=True)
except RuntimeError as error:
    print("foreach=True and fused=True: RuntimeError:", error)
