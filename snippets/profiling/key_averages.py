import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10))
x = torch.randn(64, 128)
model(x)

with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
    model(x)

print(f"{'operator':<18} {'calls':>5} {'self CPU memory':>16}  self CPU time")
for event in sorted(prof.key_averages(), key=lambda e: e.key):
    if not event.key.startswith("aten::"):
        continue
    memory = f"{event.self_cpu_memory_usage / 1024:.0f} KiB"
    print(f"{event.key:<18} {event.count:>5} {memory:>16}  {event.self_cpu_time_total:.1f} us")
