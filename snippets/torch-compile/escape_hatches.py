import torch

history = []


def show_graph(graph_module, example_inputs):
    operators = [node.target.__name__ for node in graph_module.graph.nodes if node.op == "call_function"]
    print("  graph:", ", ".join(operators))
    return graph_module.forward


@torch.compiler.disable
def record(x):
    history.append(round(x.mean().item(), 3))


def scaled_tanh(x):
    return torch.tanh(x) * 3


def opaque_scaled_tanh(x):
    return torch.tanh(x) * 3


torch.compiler.allow_in_graph(opaque_scaled_tanh)


def step(x):
    y = torch.relu(x) * 2
    record(y)
    return scaled_tanh(y) + opaque_scaled_tanh(y)


compiled = torch.compile(step, backend=show_graph)
for call in (1, 2):
    print(f"call {call}:")
    compiled(torch.arange(4.0))
print("record() ran eagerly each time:", history)
