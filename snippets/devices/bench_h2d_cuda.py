# marks: cuda
import torch
from torch.utils import benchmark

size_mib = 256
pageable = torch.randn(size_mib * 2**20 // 4)
pinned = pageable.pin_memory()
target = torch.empty_like(pageable, device="cuda")

copies = {
    "pageable": lambda: target.copy_(pageable),
    "pinned": lambda: target.copy_(pinned),
    "pinned, non_blocking": lambda: target.copy_(pinned, non_blocking=True),
}

print("| variant | median (ms) | bandwidth (GB/s) |")
print("|---|---:|---:|")
for name, copy in copies.items():
    timer = benchmark.Timer("copy()", globals={"copy": copy})
    median = timer.blocked_autorange(min_run_time=1.0).median
    print(f"| {name} | {median * 1e3:.2f} | {pageable.nbytes / median / 1e9:.1f} |")
