# marks: cuda
# estimate: 10
import torch

python_runs = 0


def step(x):
    global python_runs
    python_runs += 1
    return x * 2 + torch.rand_like(x)


static_x = torch.zeros(4, device="cuda")
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    step(static_x)
torch.cuda.current_stream().wait_stream(side)

graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    static_y = step(static_x)

replays = []
for _ in range(3):
    graph.replay()
    replays.append(static_y.clone())
print(f"Python body ran {python_runs} times in 1 warm-up call, 1 capture and {len(replays)} replays")
print("each replay drew new random numbers:", not torch.equal(replays[0], replays[1]))

try:
    static_x.copy_(torch.zeros(8, device="cuda"))
except RuntimeError as error:
    print("RuntimeError:", error)
static_x.copy_(torch.ones(1, device="cuda"))
print("a batch of 1 copied into the static input of 4 raises nothing and fills it:", bool((static_x == 1).all()))

graph = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(graph):
        y = step(static_x)
        if y.sum() > 0:
            y = y - 1
except RuntimeError as error:
    print("RuntimeError:", str(error).splitlines()[0])
    if error.__context__ is not None:
        print("  raised while handling RuntimeError:", str(error.__context__).splitlines()[0])
