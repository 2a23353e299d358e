import torch


def forward(x):
    if x.sum() > 0:
        return x.exp()
    return x.cos()


def forward_cond(x):
    return torch.cond(x.sum() > 0, torch.exp, torch.cos, (x,))


def describe(node):
    if node.op in ("placeholder", "output"):
        return node.op
    return getattr(node.target, "__name__", str(node.target))


graphs = []


def collecting_backend(graph_module, example_inputs):
    graphs.append([describe(node) for node in graph_module.graph.nodes])
    return graph_module.forward


compiled = torch.compile(forward, backend=collecting_backend)
for x in (torch.tensor([0.5, -2.0]), torch.tensor([0.5, 2.0])):
    print(f"with graph breaks, x={x.tolist()}: same as eager:", torch.equal(compiled(x), forward(x)))
for index, graph in enumerate(graphs):
    print(f"graph {index}:", graph)
torch._dynamo.reset()

x = torch.tensor([0.5, -2.0])
try:
    torch.compile(forward, backend="eager", fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as error:
    lines = str(error).splitlines()
    print("Unsupported:", lines[0])
    print(lines[1].strip())
    print(next(line.strip() for line in lines if "torch.cond" in line))

compiled = torch.compile(forward_cond, backend="eager", fullgraph=True)
for x in (torch.tensor([0.5, -2.0]), torch.tensor([0.5, 2.0])):
    print(f"torch.cond, x={x.tolist()}: same as eager:", torch.equal(compiled(x), forward(x)))
