import torch
import torch.nn.functional as F
from torch import nn
from torch.profiler import profile

torch.manual_seed(0)


def layout(t):
    nhwc = t.dim() == 4 and t.is_contiguous(memory_format=torch.channels_last)
    nchw = t.is_contiguous()
    names = {(True, False): "channels_last", (False, True): "contiguous", (True, True): "both (C or H*W is 1)"}
    return f"{names.get((nhwc, nchw), 'neither')}, {t.dim()}-D"


x = torch.randn(8, 16, 32, 32).to(memory_format=torch.channels_last)
conv = nn.Conv2d(16, 16, 3, padding=1).to(memory_format=torch.channels_last)
operations = {
    "conv2d": conv,
    "batch_norm": nn.BatchNorm2d(16),
    "instance_norm": nn.InstanceNorm2d(16),
    "relu": F.relu,
    "x + x": lambda t: t + t,
    "x + NCHW copy of x": lambda t: t + t.contiguous(),
    "NCHW copy of x + x": lambda t: t.contiguous() + t,
    "max_pool2d": lambda t: F.max_pool2d(t, 2),
    "interpolate": lambda t: F.interpolate(t, scale_factor=2),
    "cat(dim=1)": lambda t: torch.cat([t, t], dim=1),
    "softmax(dim=1)": lambda t: t.softmax(dim=1),
    "softmax(dim=-1)": lambda t: t.softmax(dim=-1),
    "contiguous()": lambda t: t.contiguous(),
    "adaptive_avg_pool2d(1)": lambda t: F.adaptive_avg_pool2d(t, 1),
    "flatten(1)": lambda t: t.flatten(1),
    "conv2d of an NCHW input": lambda t: conv(t.contiguous()),
}
for name, operation in operations.items():
    print(f"{name:24} -> {layout(operation(x))}")
try:
    x.view(8, -1)
except RuntimeError as error:
    print("view(8, -1): RuntimeError:", error)


def copies(run):
    """How many aten::copy_ calls `run` makes."""
    with profile() as prof:
        run()
    return sum(event.name == "aten::copy_" for event in prof.events())


pooled = F.adaptive_avg_pool2d(x, 1)
with torch.inference_mode():
    for name, run in {
        "softmax(dim=1)": lambda: x.softmax(dim=1),
        "softmax(dim=1), then conv2d": lambda: conv(x.softmax(dim=1)),
        "flatten(1)": lambda: x.flatten(1),
        "flatten(1) of a (8, 16, 1, 1)": lambda: pooled.flatten(1),
    }.items():
        print(f"{name:29} -> aten::copy_ calls: {copies(run)}")
