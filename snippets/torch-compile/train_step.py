# marks: slow
# timeout: 300
import copy

import torch
from torch import nn

torch.manual_seed(0)
eager_model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 1))
model = copy.deepcopy(eager_model)
compiled_model = torch.compile(model)
x, y = torch.randn(256, 32), torch.randn(256, 1)


def train_step(net, optimizer):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(net(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


eager_optimizer = torch.optim.AdamW(eager_model.parameters(), lr=1e-2)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
for step in range(3):
    eager_loss, compiled_loss = train_step(eager_model, eager_optimizer), train_step(compiled_model, optimizer)
    print(f"step {step}: loss eager {eager_loss:.5f}, compiled {compiled_loss:.5f}")

print("grad_fn of the compiled model's output:", compiled_model(x).grad_fn.name())
print("compiled model shares its parameters:", next(compiled_model.parameters()) is model[0].weight)
same = all(torch.allclose(a, b, atol=1e-5) for a, b in zip(eager_model.parameters(), model.parameters(), strict=True))
print("same weights as eager after 3 steps:", same)
torch._dynamo.reset()
