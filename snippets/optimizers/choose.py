import torch
from torch import nn
from torch.profiler import profile, record_function

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
try:
    torch.optim.AdamW(model.parameters(), lr=torch.tensor(0.01), foreach=True)
except ValueError as error:
    print("foreach=True with lr=torch.tensor(0.01): ValueError:", error)

meta = nn.Parameter(torch.zeros(4, device="meta"))  # a device without a fused kernel
adam = torch.optim.Adam([meta], fused=True)
print("Adam fused=True, a parameter on the meta device: constructed")
meta.grad = torch.zeros_like(meta)
try:
    adam.step()
except RuntimeError as error:
    print("... its first step(): RuntimeError:", error)

with profile() as prof:
    for label, options in {"defaults (foreach=None, fused=None)": {}, "foreach=True": {"foreach": True}}.items():
        with record_function(label):
            torch.optim.AdamW(model.parameters(), lr=0.01, **options).step()


def foreach_calls(event):
    """How many aten::_foreach_* operators run under a profiler event."""
    return event.name.startswith("aten::_foreach") + sum(foreach_calls(child) for child in event.cpu_children)


for event in prof.events():
    if event.name.startswith(("defaults", "foreach=True")):
        print(f"AdamW {event.name}, parameters on the CPU: {foreach_calls(event)} aten::_foreach_* calls in step()")
