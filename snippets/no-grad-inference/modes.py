import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
x = torch.ones(1, 4)
print("a new module: training =", model.training)


def describe(label, y):
    grad_fn = type(y.grad_fn).__name__ if y.grad_fn else None
    print(f"{label:<16} requires_grad={y.requires_grad!s:<5} grad_fn={grad_fn!s:<14} is_inference={y.is_inference()}")


describe("train()", model.train()(x))
describe("eval()", model.eval()(x))
with torch.no_grad():
    describe("no_grad()", model(x))
with torch.inference_mode():
    describe("inference_mode()", model(x))
