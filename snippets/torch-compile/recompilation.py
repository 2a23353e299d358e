import torch


def describe(value):
    return f"tensor of shape {tuple(value.shape)}" if isinstance(value, torch.Tensor) else f"size {value}"


def counting_backend(graph_module, example_inputs):
    placeholders = graph_module.graph.find_nodes(op="placeholder")
    inputs = ", ".join(describe(node.meta["example_value"]) for node in placeholders)
    print("  compiling a graph for", inputs)

    def run(*args):
        print("  running the graph compiled for", inputs)
        return graph_module.forward(*args)

    return run


def scale(x):
    return x * 2 + 1


for dynamic in (None, True):
    torch._dynamo.reset()
    compiled = torch.compile(scale, backend=counting_backend, dynamic=dynamic)
    print(f"dynamic={dynamic}")
    for length in (4, 8, 16):
        print(" call with length", length)
        compiled(torch.ones(length))
torch._dynamo.reset()

print("recompile_limit by default:", torch._dynamo.config.recompile_limit)
torch._dynamo.config.recompile_limit = 2
compiled = torch.compile(scale, backend=counting_backend, dynamic=False)
print("dynamic=False, recompile_limit=2")
for length in (4, 8, 16, 32, 4, 8):
    print(" call with length", length)
    compiled(torch.ones(length))
torch._dynamo.reset()
