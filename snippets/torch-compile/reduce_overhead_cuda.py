# marks: cuda slow
# timeout: 600
# estimate: 90
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 256)).cuda()
compiled = torch.compile(model, mode="reduce-overhead")
a, b = torch.randn(8, 256, device="cuda"), torch.randn(8, 256, device="cuda")


def matches(output):
    return torch.allclose(output, model(a), atol=1e-3)


with torch.no_grad():
    for _ in range(3):  # the first calls warm up and record the CUDA graph; later calls replay it
        out_a = compiled(a)
        out_b = compiled(b)
    try:
        print("kept output:", matches(out_a))
    except RuntimeError as error:
        print("RuntimeError:", str(error).split(" Stack trace:")[0])

    out_a = compiled(a).clone()
    out_b = compiled(b)
    print("cloned output:", matches(out_a))

    torch.compiler.cudagraph_mark_step_begin()
    out_a = compiled(a)
    out_b = compiled(b)
    print("both calls after cudagraph_mark_step_begin():", matches(out_a))

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
torch._dynamo.reset()
