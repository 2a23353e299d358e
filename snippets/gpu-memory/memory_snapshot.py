# marks: cuda
# estimate: 15
import pickle
import tempfile
from pathlib import Path

import torch
from torch import nn

torch.manual_seed(0)
torch.cuda.memory._record_memory_history(max_entries=100_000)
model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(), nn.Linear(4096, 1024)).cuda()
optimizer = torch.optim.AdamW(model.parameters())
for _ in range(3):
    loss = model(torch.randn(512, 1024, device="cuda")).square().mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()

with tempfile.TemporaryDirectory() as directory:
    path = Path(directory) / "snapshot.pickle"
    torch.cuda.memory._dump_snapshot(str(path))
    snapshot = pickle.loads(path.read_bytes())
torch.cuda.memory._record_memory_history(enabled=None)

events = [event for trace in snapshot["device_traces"] for event in trace]
print("snapshot keys:", sorted(snapshot))
print("allocations recorded:", sum(event["action"] == "alloc" for event in events))
print("peak allocated (MiB):", round(torch.cuda.max_memory_allocated() / 2**20))
