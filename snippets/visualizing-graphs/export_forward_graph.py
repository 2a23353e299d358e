# graph: forward
import graphviz
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(2, 3)
program = torch.export.export(model, (x,))

forward = graphviz.Digraph(node_attr={"shape": "box", "fontname": "monospace"})
for node in program.graph.nodes:
    target = node.op if node.op in ("placeholder", "output") else str(node.target)
    value = node.meta.get("val")
    shape = str(tuple(value.shape)) if isinstance(value, torch.Tensor) else ""
    print(f"{node.name:<15} {target:<20} {shape}".rstrip())
    forward.node(node.name, "\n".join(part for part in (node.name, target, shape) if part))
    for source in node.all_input_nodes:
        forward.edge(source.name, node.name)
