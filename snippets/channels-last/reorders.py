# depends: isa -- oneDNN chooses its convolution kernel, and so the layouts it reorders into, by instruction set
# depends: threads -- whether a convolution goes to oneDNN at all also depends on torch's thread count
import os
import sys
import tempfile

import torch
from torch import nn
from torch.profiler import profile


def onednn_calls(run, *args):
    """The oneDNN primitives `run(*args)` executes: oneDNN's verbose mode writes them to file descriptor 1."""
    with tempfile.TemporaryFile() as log:
        sys.stdout.flush()
        saved = os.dup(1)
        os.dup2(log.fileno(), 1)
        try:
            with torch.backends.mkldnn.verbose(torch.backends.mkldnn.VERBOSE_ON):
                run(*args)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        lines = log.read().decode().splitlines()
    return [line.split(",") for line in lines if ",primitive,exec," in line]


torch.manual_seed(0)
conv = nn.Conv2d(32, 64, 3, padding=1).eval()
images = torch.randn(16, 32, 32, 32)
weight_shape = "x".join(map(str, conv.weight.shape))
with torch.inference_mode():
    for label, memory_format in (("NCHW", torch.contiguous_format), ("channels_last", torch.channels_last)):
        conv = conv.to(memory_format=memory_format)
        x = images.to(memory_format=memory_format)
        conv(x)  # the first call may also set things up; count the second
        calls = onednn_calls(conv, x)
        reorders = [f for f in calls if f[5] == "reorder"]
        weights = sum(f[-2] == weight_shape for f in reorders)
        print(f"{label:13} -> oneDNN reorders per call: {len(reorders)} "
              f"(weight: {weights}, activations: {len(reorders) - weights})")


def kernel(batch, size):
    """The ATen kernel a channels_last 3 x 3 convolution of 32 channels runs for this input."""
    layer = nn.Conv2d(32, 32, 3, padding=1).eval().to(memory_format=torch.channels_last)
    image = torch.randn(batch, 32, size, size).to(memory_format=torch.channels_last)
    with torch.inference_mode(), profile() as prof:
        layer(image)
    names = {event.name for event in prof.events()}
    return next(name for name in ("aten::mkldnn_convolution", "aten::_slow_conv2d_forward") if name in names)


for batch, size in ((16, 32), (1, 16)):
    print(f"batch {batch:2}, {size} x {size} -> {kernel(batch, size)}")
