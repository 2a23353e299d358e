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

x = torch.tensor([0.5, 2.0], requires_grad=True)
compiled(x).sum().backward()
print("torch.cond backward, x.grad == exp(x):", torch.allclose(x.grad, x.detach().exp()))
torch._dynamo.reset()


def halve_until_small(x):
    while x.abs().sum() > 1:
        x = x / 2
    return x


graphs.clear()
torch.compile(halve_until_small, backend=collecting_backend)(torch.tensor([3.0, 1.0]))
print("while loop, graphs:", graphs)


def shape_branch(x):
    if x.shape[0] > 4:
        return x.exp()
    return x.cos()


compiled = torch.compile(shape_branch, backend="eager", fullgraph=True)
for x in (torch.ones(5), torch.ones(3)):
    print(f"shape branch, fullgraph=True, x.shape={tuple(x.shape)}: same as eager:",
          torch.equal(compiled(x), shape_branch(x)))
