# marks: cuda
# estimate: 30
# method: interleaved -- eager calls and graph replays alternate in rounds; the graphs are captured once, before timing
import copy
import statistics

import torch
from torch import nn
from torch.utils import benchmark

ROUNDS = 10

torch.manual_seed(0)
eager_model = nn.Sequential(*[layer for _ in range(16) for layer in (nn.Linear(256, 256), nn.ReLU())]).cuda()
graphed_model = copy.deepcopy(eager_model)
optimizers = {model: torch.optim.SGD(model.parameters(), lr=1e-3) for model in (eager_model, graphed_model)}
static_x = torch.randn(8, 256, device="cuda")
static_y = torch.randn(8, 256, device="cuda")


def forward(model):
    with torch.no_grad():
        return model(static_x)


def train_step(model):
    optimizers[model].zero_grad(set_to_none=True)
    loss = nn.functional.mse_loss(model(static_x), static_y)
    loss.backward()
    optimizers[model].step()
    return loss


side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    for _ in range(3):
        forward(graphed_model)
        train_step(graphed_model)
torch.cuda.current_stream().wait_stream(side)

forward_graph, step_graph = torch.cuda.CUDAGraph(), torch.cuda.CUDAGraph()
with torch.cuda.graph(forward_graph):
    forward(graphed_model)
optimizers[graphed_model].zero_grad(set_to_none=True)
with torch.cuda.graph(step_graph):
    train_step(graphed_model)

variants = {
    "forward, eager": lambda: forward(eager_model),
    "forward, CUDA graph": forward_graph.replay,
    "training step, eager": lambda: train_step(eager_model),
    "training step, CUDA graph": step_graph.replay,
}
timers = {name: benchmark.Timer("fn()", globals={"fn": fn}) for name, fn in variants.items()}
samples = {name: [] for name in variants}
for _ in range(ROUNDS):
    for name, timer in timers.items():
        samples[name].append(timer.timeit(200).mean * 1e6)

print("threads: 1")
print("| variant | median (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|")
for name, values in samples.items():
    q1, _, q3 = statistics.quantiles(values, n=4)
    print(f"| {name} | {statistics.median(values):.1f} | {q3 - q1:.2f} | {ROUNDS} |")
