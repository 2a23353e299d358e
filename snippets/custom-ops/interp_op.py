import numpy as np
import torch
from torch import Tensor, nn


@torch.library.custom_op("mylib::interp", mutates_args=())
def interp(x: Tensor, xp: Tensor, fp: Tensor) -> Tensor:
    y = np.interp(x.numpy(force=True), xp.numpy(force=True), fp.numpy(force=True))
    return torch.from_numpy(y).to(device=x.device, dtype=x.dtype)


@interp.register_fake
def _(x, xp, fp):
    return x.new_empty(x.shape)


@torch.library.custom_op("mylib::interp_", mutates_args=("x",))
def interp_(x: Tensor, xp: Tensor, fp: Tensor) -> None:
    x.copy_(interp(x, xp, fp))


print("schema:", torch.ops.mylib.interp.default._schema)
print("schema:", torch.ops.mylib.interp_.default._schema)


def scaled_interp(x, xp, fp):
    return interp(x * 2, xp, fp) + 1


xp, fp = torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 10.0, 0.0])
x = torch.tensor([0.1, 0.4, 0.7])
explanation = torch._dynamo.explain(scaled_interp)(x, xp, fp)
print("graphs:", explanation.graph_count, "| graph breaks:", explanation.graph_break_count)
torch._dynamo.reset()

compiled = torch.compile(scaled_interp, backend="aot_eager", fullgraph=True)
print("compiled == eager:", torch.equal(compiled(x, xp, fp), scaled_interp(x, xp, fp)))
torch._dynamo.reset()


class ScaledInterp(nn.Module):
    def forward(self, x, xp, fp):
        return scaled_interp(x, xp, fp)


program = torch.export.export(ScaledInterp(), (x, xp, fp))
print("exported:", [str(node.target) for node in program.graph.nodes if node.op == "call_function"])

y = x.clone()
interp_(y, xp, fp)
print("in place:", y.tolist())
