# marks: slow
# timeout: 120
import torch
from torch.utils import benchmark

torch.manual_seed(0)
x = torch.randn(512, 512)

print("| variant | median (us) |")
print("|---|---|")
for threads in (1, 2):
    timer = benchmark.Timer("x @ x", globals={"x": x}, num_threads=threads)
    measurement = timer.blocked_autorange(min_run_time=1.0)
    print(f"| num_threads={threads} | {measurement.median * 1e6:.0f} |")
