# graph: dot
import graphviz
import torch


def normalize(x):
    x = x - x.mean()
    print("std:", round(x.std().item(), 3))
    return x / x.std()


graphs = []


def collecting_backend(graph_module, example_inputs):
    graphs.append(graph_module)
    return graph_module.forward


torch._dynamo.reset()
torch.compile(normalize, backend=collecting_backend)(torch.arange(4.0))
torch._dynamo.reset()


def describe(node):
    if node.op in ("placeholder", "output"):
        return node.op
    return getattr(node.target, "__name__", str(node.target))


dot = graphviz.Digraph(node_attr={"shape": "box", "fontname": "monospace"})
dot.node("python", "Python: .item(), round(), print()", shape="note")
for index, graph_module in enumerate(graphs):
    print(f"graph {index}:", [describe(node) for node in graph_module.graph.nodes])
    with dot.subgraph(name=f"cluster_{index}", graph_attr={"label": f"graph {index}"}) as cluster:
        for node in graph_module.graph.nodes:
            cluster.node(f"{index}.{node.name}", f"{node.name}: {describe(node)}")
            for source in node.all_input_nodes:
                cluster.edge(f"{index}.{source.name}", f"{index}.{node.name}")
first_input = graphs[1].graph.find_nodes(op="placeholder")[0].name
dot.edge("0.output", "python")
dot.edge("python", f"1.{first_input}")
