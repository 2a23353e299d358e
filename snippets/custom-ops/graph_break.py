import numpy as np
import torch


def interp(x, xp, fp):
    """Piecewise-linear interpolation through the points (xp, fp), computed by NumPy."""
    return torch.from_numpy(np.interp(x.numpy(), xp.numpy(), fp.numpy())).to(x.dtype)


def scaled_interp(x, xp, fp):
    return interp(x * 2, xp, fp) + 1


xp, fp = torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 10.0, 0.0])
x = torch.tensor([0.1, 0.4, 0.7])
print("plain function:", scaled_interp(x, xp, fp).tolist())
explanation = torch._dynamo.explain(scaled_interp)(x, xp, fp)
print("graphs:", explanation.graph_count, "| graph breaks:", explanation.graph_break_count)
for reason in explanation.break_reasons:
    print("break:", reason.reason.splitlines()[0], "| in", " -> ".join(frame.name for frame in reason.user_stack))
torch._dynamo.reset()

try:
    torch.compile(scaled_interp, backend="eager", fullgraph=True)(x, xp, fp)
except torch._dynamo.exc.Unsupported as error:
    print("fullgraph=True: Unsupported:", str(error).splitlines()[0])
