import torch


def normalize(x):
    x = x - x.mean()
    print("std:", round(x.std().item(), 3))
    return x / x.std()


explanation = torch._dynamo.explain(normalize)(torch.arange(4.0))
print("graphs:", explanation.graph_count)
print("graph breaks:", explanation.graph_break_count)
for reason in explanation.break_reasons:
    print("reason:", reason.reason.splitlines()[0])
    print("        ", reason.reason.splitlines()[1].strip())
