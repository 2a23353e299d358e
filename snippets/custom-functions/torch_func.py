import torch
from torch import nn
from torch.func import functional_call, grad, jacrev, vmap


def swish(x):
    return x * torch.sigmoid(x)


x = torch.tensor([-1.0, 0.0, 2.0])
print("grad:", grad(lambda t: swish(t).sum())(x))
print("jacrev:\n", jacrev(swish)(x))

torch.manual_seed(0)
model = nn.Linear(3, 1)
params = {name: p.detach() for name, p in model.named_parameters()}
inputs, targets = torch.randn(8, 3), torch.randn(8, 1)


def loss_fn(params, x, y):
    prediction = functional_call(model, params, (x,))
    return nn.functional.mse_loss(prediction, y)


per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, inputs, targets)
print({name: tuple(g.shape) for name, g in per_sample.items()})
print("mean of per-sample grads == batch grad:",
      torch.allclose(per_sample["weight"].mean(0), grad(loss_fn)(params, inputs, targets)["weight"]))
