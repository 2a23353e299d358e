# figure: trace=timeline
import json
import tempfile
from pathlib import Path

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function, schedule

LANES = (("steps", "profiler_step"), ("regions", "region"), ("operators", "operator"), ("nested", "operator"))


def nesting_lanes(events):
    """The trace's spans on one lane per nesting depth, in ms from the first step's start."""
    spans = sorted((e for e in events if e.get("ph") == "X" and e.get("cat") != "Trace"),
                   key=lambda e: (e["ts"], -e["dur"]))
    start, open_ends = spans[0]["ts"], []
    lanes = [{"lane": lane, "spans": []} for lane, _ in LANES]
    for event in spans:
        end = event["ts"] + event["dur"]
        open_ends = [e for e in open_ends if e > event["ts"]]
        if len(open_ends) < len(LANES):
            times = [round((t - start) / 1e3, 3) for t in (event["ts"], end)]
            lanes[len(open_ends)]["spans"].append([*times, LANES[len(open_ends)][1], event["name"]])
        open_ends.append(end)
    return lanes


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

with tempfile.TemporaryDirectory() as trace_dir:
    traces = []

    def save_trace(prof):
        path = Path(trace_dir) / f"trace_step{prof.step_num}.json"
        prof.export_chrome_trace(str(path))
        traces.append(path)

    with profile(
        activities=[ProfilerActivity.CPU],
        schedule=schedule(wait=1, warmup=1, active=2, repeat=1),
        on_trace_ready=save_trace,
    ) as prof:
        for _step in range(6):
            with record_function("data"):
                x, y = torch.randn(16, 32), torch.randn(16, 1)
            with record_function("forward"):
                loss = nn.functional.mse_loss(model(x), y)
            with record_function("backward"):
                optimizer.zero_grad()
                loss.backward()
            with record_function("optimizer"):
                optimizer.step()
            prof.step()

    print("traces written:", [path.name for path in traces])
    events = json.loads(traces[0].read_text())["traceEvents"]
    names = [e["name"] for e in events if e.get("ph") == "X"]
    for label in ("ProfilerStep#2", "ProfilerStep#3", "data", "forward", "backward", "optimizer"):
        print(f"{label:<15} spans in the trace: {names.count(label)}")
    trace = {"unit": "ms", "lanes": nesting_lanes(events)}
    print("spans per nesting depth:", [len(lane["spans"]) for lane in trace["lanes"]])

calls = {e.key: e.count for e in prof.key_averages()}
print("key_averages calls:", {label: calls[label] for label in ("forward", "backward", "optimizer")})
