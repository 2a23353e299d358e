# marks: cuda
# estimate: 10
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).cuda().eval()
static_input = torch.zeros(32, 256, device="cuda")

side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side), torch.no_grad():
    for _ in range(3):
        model(static_input)
torch.cuda.current_stream().wait_stream(side)

graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph), torch.no_grad():
    static_output = model(static_input)

kept = {}
for step in range(3):
    batch = torch.randn(32, 256, device="cuda")
    static_input.copy_(batch)
    graph.replay()
    with torch.no_grad():
        eager = model(batch)
    print(f"step {step}: replay matches eager: {torch.allclose(static_output, eager, rtol=1e-5, atol=1e-6)}")
    if step == 0:
        kept = {"reference": static_output, "clone()": static_output.clone(), "eager": eager}

for name in ("reference", "clone()"):
    still = torch.allclose(kept[name], kept["eager"], rtol=1e-5, atol=1e-6)
    print(f"step 0's output kept as {name}, after two more replays: still step 0's result: {still}")
