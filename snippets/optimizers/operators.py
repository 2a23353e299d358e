from collections import Counter

import torch
from torch import nn
from torch.profiler import profile, record_function

implementations = {"for-loop (foreach=False)": {"foreach": False}, "foreach=True": {"foreach": True},
                   "fused=True": {"fused": True}}


def optimizer(options):
    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Linear(64, 64) for _ in range(50)])  # 100 small parameter tensors
    model(torch.randn(8, 64)).sum().backward()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, **options)
    opt.step()  # the first step also creates the optimizer's state
    return opt


def called(event, nested):
    """The aten operators under a profiler event: those called from Python, or all of them."""
    for child in event.cpu_children:
        if child.name.startswith("aten::"):
            yield child
            if not nested:
                continue
        yield from called(child, nested)


optimizers = {name: optimizer(options) for name, options in implementations.items()}
with profile() as prof:
    for name, opt in optimizers.items():
        with record_function(name):
            opt.step()
steps = {event.name: event for event in prof.events() if event.name in optimizers}
for name, event in steps.items():
    every = [operator.name for operator in called(event, nested=True)]
    print(f"{name}: {len(list(called(event, nested=False)))} operators called from Python, {len(every)} in all "
          f"(nested included), {every.count('aten::item')} aten::item")
for name in ("foreach=True", "fused=True"):
    for operator in called(steps[name], nested=False):
        if operator.name in ("aten::_foreach_sqrt", "aten::_fused_adamw_"):
            inside = Counter(child.name for child in called(operator, nested=True))
            print(f"inside {operator.name}:", ", ".join(f"{count} x {op}" for op, count in inside.items()))
