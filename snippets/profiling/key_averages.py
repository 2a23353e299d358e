import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10))
x = torch.randn(64, 128)
CALLS = 10
for _ in range(5):
    model(x)

with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
    for _ in range(CALLS):
        model(x)

print(f"per model call, averaged over {CALLS} calls")
print(f"{'operator':<18} {'calls':>5} {'self CPU memory':>16}  self CPU time")
for event in sorted(prof.key_averages(), key=lambda e: e.key):
    if not event.key.startswith("aten::"):
        continue
    memory = f"{event.self_cpu_memory_usage / CALLS / 1024:.1f} KiB"
    time_us = event.self_cpu_time_total / CALLS
    print(f"{event.key:<18} {event.count // CALLS:>5} {memory:>16}  {time_us:.1f} us")
