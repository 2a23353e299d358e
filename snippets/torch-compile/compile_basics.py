# marks: slow
# timeout: 300
import torch
from torch.nn.functional import gelu


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


compiled = torch.compile(gelu_tanh)

torch.manual_seed(0)
x = torch.randn(1024, 1024)
expected = gelu_tanh(x)
print("same result as eager:", torch.allclose(compiled(x), expected, atol=1e-6))
print("same as gelu(approximate='tanh'):", torch.allclose(expected, gelu(x, approximate="tanh"), atol=1e-6))
torch._dynamo.reset()
