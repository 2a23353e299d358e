import warnings

import torch
from torch import nn


class Log(nn.Module):
    def forward(self, x):
        return x.log()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), Log(), nn.Linear(8, 1))
first_bad = []


def check_finite(name):
    def hook(module, inputs, output):
        if not first_bad and not torch.isfinite(output).all():
            first_bad.append(f"{name} ({type(module).__name__})")

    return hook


handles = [module.register_forward_hook(check_finite(name)) for name, module in model.named_modules() if name]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        loss = model(torch.randn(16, 4)).pow(2).mean()
        try:
            loss.backward()
        except RuntimeError as error:
            print("loss:", loss.item(), "| RuntimeError:", error)
traceback = next(str(w.message) for w in caught if "Error detected" in str(w.message)).splitlines()
last_frame = max(i for i, line in enumerate(traceback) if line.lstrip().startswith('File "'))
print("forward line it names:", traceback[last_frame + 1].strip())
print("first non-finite module output:", first_bad[0])
for handle in handles:
    handle.remove()

x = torch.tensor([-1.0, 2.0], requires_grad=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        loss = x.log().sum()
        loss.backward()
print("loss:", loss.item(), "| no error, x.grad:", x.grad)
