import types

from torch import nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
params = model.named_parameters()
print(type(params).__name__, "| a generator:", isinstance(params, types.GeneratorType))
try:
    params[0]
except TypeError as error:
    print("TypeError:", error)

print("first pass: ", [name for name, _ in params])
print("second pass:", [name for name, _ in params])
print("as a dict:  ", list(dict(model.named_parameters())))
