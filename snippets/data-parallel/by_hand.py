import torch
from torch import nn


def data_parallel_by_hand(module, batch, n_devices):
    chunks = batch.chunk(n_devices)  # scatter
    outputs = [module(chunk) for chunk in chunks]  # replicate + parallel_apply
    return torch.cat(outputs)  # gather


torch.manual_seed(0)
x = torch.randn(8, 8)
target = torch.randn(8, 2)

model = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 2))
nn.functional.mse_loss(model(x), target).backward()
full_grad = model[0].weight.grad.clone()
model.zero_grad()
out = data_parallel_by_hand(model, x, n_devices=2)
nn.functional.mse_loss(out, target).backward()
print("output equals model(x):", torch.allclose(out, model(x)))
print("gradient equals the full-batch gradient:", torch.allclose(model[0].weight.grad, full_grad))

bn_model = nn.Sequential(nn.Linear(8, 4), nn.BatchNorm1d(4), nn.Linear(4, 2))
diff = (data_parallel_by_hand(bn_model, x, n_devices=2) - bn_model(x)).abs().max()
print(f"with BatchNorm, max |difference|: {diff:.4f}")
