import threading

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 2).eval()


@torch.inference_mode()
def predict(batch):
    return model(batch).argmax(dim=1)


print(predict(torch.randn(3, 4)))
print("grad mode after the call:", torch.is_grad_enabled())


@torch.no_grad  # without parentheses works too
def features(batch):
    return model(batch)


print("bare @torch.no_grad, requires_grad:", features(torch.randn(3, 4)).requires_grad)

# One switch for code shared by training and evaluation:
for training in (True, False):
    with torch.set_grad_enabled(training):
        print(f"set_grad_enabled({training}): requires_grad =", model(torch.randn(3, 4)).requires_grad)

# Grad mode is per thread: a new thread starts with autograd on.
with torch.no_grad():
    seen = []
    worker = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
    worker.start()
    worker.join()
    print("inside no_grad(), grad mode in a new thread:", seen[0])
