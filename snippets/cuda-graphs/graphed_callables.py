# marks: cuda
# estimate: 10
import copy

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)).cuda()
eager_model = copy.deepcopy(model)
batches = [(torch.randn(16, 64, device="cuda"), torch.randn(16, 1, device="cuda")) for _ in range(5)]

graphed = torch.cuda.make_graphed_callables(model, (batches[0][0],))
print("make_graphed_callables returned the same module:", graphed is model)

for net in (graphed, eager_model):
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for inputs, targets in batches:
        loss = nn.functional.mse_loss(net(inputs), targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

same = all(torch.allclose(a, b, rtol=1e-5, atol=1e-6)
           for a, b in zip(graphed.parameters(), eager_model.parameters(), strict=True))
print("parameters after 5 steps match eager training:", same)
