# marks: cuda
# estimate: 20
# figure: timeline=timeline
import json
import tempfile

import torch
from torch.profiler import ProfilerActivity, profile

a = torch.randn(4096, 4096, device="cuda")
for _ in range(3):
    (a @ a).sum()  # warm-up of everything profiled: cuBLAS, the lazily loaded sum kernel, its small allocation
torch.cuda.synchronize()

with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
    for _ in range(5):
        b = a @ a
    total = b.sum()
    torch.cuda.synchronize()

with tempfile.TemporaryDirectory() as trace_dir:
    prof.export_chrome_trace(f"{trace_dir}/trace.json")
    with open(f"{trace_dir}/trace.json") as trace:
        events = sorted((e for e in json.load(trace)["traceEvents"] if e.get("ph") == "X"), key=lambda e: e["ts"])
kernels = [e for e in events if e.get("cat") == "kernel"]
launched = {e["args"]["correlation"]: i for i, e in enumerate(kernels)}
calls = [e for e in events if e.get("cat") in ("cuda_runtime", "cuda_driver")
         and (e["args"].get("correlation") in launched or "Synchronize" in e["name"])]
origin = min(e["ts"] for e in calls + kernels)


def span(event, kind):
    return [round((event["ts"] - origin) / 1e3, 3), round((event["ts"] + event["dur"] - origin) / 1e3, 3), kind]


launches = [e for e in calls if "Synchronize" not in e["name"]]
first_kernel_end = kernels[0]["ts"] + kernels[0]["dur"]
early = sum(e["ts"] + e["dur"] < first_kernel_end for e in launches)
print(f"{len(kernels)} kernels; {early} of their {len(launches)} launches returned before the first kernel ended")

timeline = {
    "unit": "ms",
    "lanes": [{"lane": "host", "spans": [span(e, "launch" if e in launches else "sync") for e in calls]},
              {"lane": "device", "spans": [span(e, "kernel") for e in kernels]}],
    "links": [[0, i, 1, launched[e["args"]["correlation"]]] for i, e in enumerate(calls) if e in launches],
}
