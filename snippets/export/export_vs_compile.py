import torch
from torch import nn


class Gate(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return -x


class CondGate(nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda x: x * 2, lambda x: -x, (x,))


x = torch.tensor([1.0, -2.0, 3.0])
explanation = torch._dynamo.explain(Gate())(x)
print("torch.compile: graphs:", explanation.graph_count, "| graph breaks:", explanation.graph_break_count)
torch._dynamo.reset()

try:
    torch.export.export(Gate(), (x,))
except Exception as error:
    print(f"torch.export: {type(error).__name__}:", str(error).splitlines()[0])

program = torch.export.export(CondGate(), (x,))
print("torch.cond in the graph:", any(node.target is torch.ops.higher_order.cond for node in program.graph.nodes))
for sample in (x, -x):
    print(sample.tolist(), "->", program.module()(sample).tolist(), "| eager:", Gate()(sample).tolist())
