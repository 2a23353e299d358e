# warns: DeprecationWarning: `torch.jit.trace` is deprecated -- add_graph traces the model; the page shows it
# warns: DeprecationWarning: `torch.jit.trace_method` is deprecated -- the same trace, through trace_method
import tempfile
import warnings
from pathlib import Path

import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from torch import nn
from torch.utils.tensorboard import SummaryWriter

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(2, 3)
modes = []  # model.training at each forward call
model.register_forward_pre_hook(lambda module, args: modes.append(module.training))

with tempfile.TemporaryDirectory() as logdir:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with SummaryWriter(logdir) as writer:
            writer.add_graph(model, x)
    for message in dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught):
        print(message)

    print("forward calls during add_graph:", len(modes), "| training:", modes, "| after:", model.training)
    print("graph methods:", [name for name in dir(SummaryWriter) if "graph" in name])

    files = sorted(Path(logdir).glob("events.out.tfevents.*"))
    print("event files written:", len(files), "| name:", ".".join(files[0].name.split(".")[:3]) + ".*")

    events = EventAccumulator(logdir)
    events.Reload()
    for node in events.Graph().node:
        if node.op.startswith("aten::"):
            print(f"  {node.name.rsplit('/', 1)[0]:<22} {node.op}")
