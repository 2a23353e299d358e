# marks: cuda
# estimate: 10
import gc

import torch

x = torch.randn(2048, 2048, device="cuda")
w = torch.randn(2048, 2048, device="cuda")


def layer(inputs):
    return (inputs @ w).relu() @ w


def capture(pool=None):
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph, pool=pool):
        output = layer(x)
    return graph, output


alive = []


def reserved_by_two_graphs(shared):
    gc.collect()
    torch.cuda.empty_cache()
    before = torch.cuda.memory_reserved()
    first = capture()
    second = capture(first[0].pool() if shared else None)
    for graph, _ in (first, second):
        graph.replay()
    torch.cuda.synchronize()
    alive.extend((first, second))
    return (torch.cuda.memory_reserved() - before) / 2**20


side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    layer(x)
torch.cuda.current_stream().wait_stream(side)
# The first capture also allocates cuBLAS's workspace for the capture stream, in its own pool. No graph is freed
# before the last measurement (first_capture, `alive`): freeing a graph may free that workspace too, and the next
# capture would allocate it again in its own pool.
first_capture = capture()

print("one 2048x2048 float32 tensor (MiB):", x.nbytes / 2**20)
print("two graphs, a private pool each, reserve (MiB):", reserved_by_two_graphs(shared=False))
print("two graphs sharing one pool, reserve (MiB):", reserved_by_two_graphs(shared=True))
