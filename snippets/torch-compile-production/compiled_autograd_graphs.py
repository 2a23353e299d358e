import torch
from torch import nn
from torch._dynamo.utils import counters


def recording_backend(graphs):
    """A torch.compile backend that keeps each graph it is given and runs it as it is (no Inductor)."""
    def backend(gm, example_inputs):
        graphs.append(gm)
        return gm.forward
    return backend


def op_names(gm):
    """The distinct operations a graph calls, in order (without tuple indexing and output checks)."""
    calls = [node for node in gm.graph.nodes if node.op == "call_function"]
    names = [getattr(node.target, "__name__", str(node.target)) for node in calls]
    return list(dict.fromkeys(n for n in names if n not in ("getitem", "validate_outputs")))


def train_step(model, x):
    hidden = model[0](x)
    hidden.register_hook(lambda grad: grad * 0.5)  # a tensor hook on an activation, inside the compiled region
    loss = model[1](torch.relu(hidden)).square().mean()
    loss.backward()


def run(compiled_autograd):
    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.config.compiled_autograd = compiled_autograd
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 16), nn.Linear(16, 1))
    graphs = []
    x = torch.randn(4, 16)
    step = torch.compile(train_step, backend=recording_backend(graphs))
    step(model, x)
    print(f"compiled_autograd={compiled_autograd}: graph breaks {sum(counters['graph_break'].values())}, "
          f"compiled autograd captures {counters['compiled_autograd']['captures']}")
    for reason in counters["graph_break"]:
        print(f"  graph break: {reason.splitlines()[0]}")
    for number, gm in enumerate(graphs, 1):
        print(f"  graph {number}: {', '.join(op_names(gm))}")
    print(f"  gradient of the first weight: {model[0].weight.grad.abs().sum():.4f}")
    gradient = model[0].weight.grad.clone()
    if compiled_autograd:
        step(model, x)  # .grad is now a tensor: AccumulateGrad adds to it, a backward pass of another key
        print(f"  step 2, .grad kept: compiled autograd captures {counters['compiled_autograd']['captures']}")
        model.zero_grad(set_to_none=True)
        step(model, x)  # .grad is None again: the graph of step 1 is reused
        print(f"  step 3, after zero_grad(set_to_none=True): captures {counters['compiled_autograd']['captures']}")
    return gradient


def switch_flipped_after_wrapping(on_when_wrapped):
    """Wrap the step with the switch in one state, flip it, then call the wrapper."""
    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.config.compiled_autograd = on_when_wrapped
    step = torch.compile(train_step, backend=recording_backend([]))
    torch._dynamo.config.compiled_autograd = not on_when_wrapped
    step(nn.Sequential(nn.Linear(16, 16), nn.Linear(16, 1)), torch.randn(4, 16))
    torch._dynamo.config.compiled_autograd = False
    state = "on" if on_when_wrapped else "off"
    print(f"switch {state} at torch.compile(...), flipped before the call: "
          f"captures {counters['compiled_autograd']['captures']}")


def backward_traced_by_dynamo():
    """trace_autograd_ops (off by default): Dynamo traces loss.backward() instead of breaking the graph."""
    torch._dynamo.reset()
    counters.clear()
    torch._dynamo.config.trace_autograd_ops = True
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 16), nn.Linear(16, 1))
    graphs = []
    torch.compile(train_step, backend=recording_backend(graphs))(model, torch.randn(4, 16))
    torch._dynamo.config.trace_autograd_ops = False
    print(f"trace_autograd_ops=True: graphs {len(graphs)}, graph breaks {sum(counters['graph_break'].values())}, "
          f"gradient of the first weight: {model[0].weight.grad.abs().sum():.4f}")


default_grad = run(compiled_autograd=False)
compiled_grad = run(compiled_autograd=True)
torch._dynamo.config.compiled_autograd = False
print("same gradients (atol 1e-6):", torch.allclose(default_grad, compiled_grad, atol=1e-6))
switch_flipped_after_wrapping(on_when_wrapped=False)
switch_flipped_after_wrapping(on_when_wrapped=True)
backward_traced_by_dynamo()
