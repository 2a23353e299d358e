# marks: cuda slow
# timeout: 600
# estimate: 90
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 256)).cuda()
compiled = torch.compile(model, mode="reduce-overhead")
a, b = torch.randn(8, 256, device="cuda"), torch.randn(8, 256, device="cuda")


def matches(output, x):
    return torch.allclose(output, model(x), atol=1e-3)


def read(output, x):
    try:
        return matches(output, x)
    except RuntimeError as error:
        return "RuntimeError: " + str(error).split(" Stack trace:")[0]


with torch.no_grad():
    # 1. The first call warms up; the second ends the warm-up, records the graph and invalidates the first output.
    first = compiled(a)
    compiled(a)
    print("output of the warm-up call, read after the next call:", read(first, a))

    # 2. Steady state: every call replays the one graph and returns the same output tensor, overwritten.
    for _ in range(3):
        out_a = compiled(a)
        out_b = compiled(b)
    print("replays: out_a is out_b:", out_a is out_b)
    print("replays: out_a still holds model(a):", read(out_a, a))

    out_a = compiled(a).clone()
    out_b = compiled(b)
    print("cloned output still holds model(a):", read(out_a, a))
    del out_a, out_b

    # 3. Without marks every call is an iteration of its own: a new batch size warms up, records, then replays.
    recorded = []
    capture_begin = torch.cuda.CUDAGraph.capture_begin

    def counting_capture_begin(graph, *args, **kwargs):
        recorded.append(graph)
        return capture_begin(graph, *args, **kwargs)

    torch.cuda.CUDAGraph.capture_begin = counting_capture_begin
    for batch in (16, 32, 64, 32, 16):
        before = len(recorded)
        for _ in range(3):
            compiled(torch.randn(batch, 256, device="cuda"))
        print(f"batch {batch}: CUDA graphs recorded: {len(recorded) - before}")
    torch.cuda.CUDAGraph.capture_begin = capture_begin

    # 4. After the first cudagraph_mark_step_begin() only a mark starts an iteration: mark every one.
    for step in range(3):
        torch.compiler.cudagraph_mark_step_begin()
        out_a = compiled(a)
        out_b = compiled(b)
        print(f"marked iteration {step}: out_a holds model(a) after the second call:", read(out_a, a))
torch._dynamo.reset()
