import json
import tempfile
import warnings

import torch
from torch import nn
from torch._C._profiler import _ExperimentalConfig
from torch.profiler import ProfilerActivity, profile, schedule

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10))
x = torch.randn(64, 128)


def addmm_callers(**options):
    """The module each aten::addmm group was called from, one group per distinct stack."""
    with profile(activities=[ProfilerActivity.CPU], with_stack=True, **options) as prof:
        model(x)
    groups = [e for e in prof.key_averages(group_by_stack_n=5) if e.key == "aten::addmm"]
    return [[frame for frame in e.stack if frame.startswith("nn.Module:")] or e.stack for e in groups]


print("with_stack=True:               ", addmm_callers())
print("with_stack=True, verbose=True: ",
      addmm_callers(experimental_config=_ExperimentalConfig(verbose=True)))

with profile(activities=[ProfilerActivity.CPU], with_stack=True) as prof:
    model(x)
with tempfile.TemporaryDirectory() as trace_dir:
    prof.export_chrome_trace(f"{trace_dir}/trace.json")
    with open(f"{trace_dir}/trace.json") as trace:
        events = json.load(trace)["traceEvents"]
print("trace spans, with_stack=True:  ", sorted({e["name"] for e in events if e.get("cat") == "python_function"
                                                 and e["name"].startswith("nn.Module:")}))

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    model(x)
print("addmm by input shapes:         ", [e.input_shapes for e in prof.key_averages(group_by_input_shape=True)
                                          if e.key == "aten::addmm"])

# A schedule without prof.step(): the profiler stays in the phase of step 0.
warnings.simplefilter("ignore")  # schedule() warns when warmup=0
for wait, warmup in ((1, 1), (0, 0)):
    exported = []
    with profile(activities=[ProfilerActivity.CPU],
                 schedule=schedule(wait=wait, warmup=warmup, active=2, repeat=1),
                 on_trace_ready=exported.append) as prof:
        for _ in range(5):
            model(x)  # no prof.step()
    linears = sum(e.count for e in prof.key_averages() if e.key == "aten::linear") if exported else 0
    print(f"no step(), wait={wait} warmup={warmup}: on_trace_ready called {len(exported)} time(s),"
          f" aten::linear recorded {linears} times")
