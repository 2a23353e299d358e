# marks: cuda slow
# timeout: 600
import time

import torch
from torch import nn
from torch.utils import benchmark


def first_call_ms(fn, x):
    torch.cuda.synchronize()
    start = time.perf_counter()
    fn(x)
    torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3


def steady_us(fn, x):
    timer = benchmark.Timer("fn(x)", globals={"fn": fn, "x": x})
    return timer.blocked_autorange(min_run_time=1.0).median * 1e6


torch.manual_seed(0)
layers = [module for _ in range(8) for module in (nn.Linear(512, 512), nn.GELU())]
model = nn.Sequential(*layers).cuda().eval()
x = torch.randn(64, 512, device="cuda")

print("| variant | first call (ms) | steady-state median (us) |")
print("|---|---|---|")
with torch.no_grad():
    print(f"| eager | {first_call_ms(model, x):.1f} | {steady_us(model, x):.1f} |")
    for mode in ("default", "reduce-overhead", "max-autotune"):
        torch._dynamo.reset()
        compiled = torch.compile(model, mode=mode)
        first = first_call_ms(compiled, x)
        print(f"| mode={mode} | {first:.1f} | {steady_us(compiled, x):.1f} |")
torch._dynamo.reset()
