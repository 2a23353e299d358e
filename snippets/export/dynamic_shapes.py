import torch
from torch import nn
from torch.export import Dim

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU()).eval()
batch = Dim("batch", min=1, max=64)
program = torch.export.export(model, (torch.randn(2, 4),), dynamic_shapes={"input": {0: batch}})
x = next(node for node in program.graph.nodes if node.op == "placeholder" and node.name == "input")
print("input:", x.meta["val"].shape, "| range:", program.range_constraints)

for rows in (1, 64):
    print(f"{rows} rows:", tuple(program.module()(torch.randn(rows, 4)).shape))
for shape in ((65, 4), (8, 5)):
    try:
        program.module()(torch.randn(*shape))
    except AssertionError as error:
        print(f"{shape}: AssertionError:", error)


class PairsOfRows(nn.Module):
    def forward(self, x):
        return x.reshape(2, -1) if x.shape[0] == 4 else x


try:
    torch.export.export(PairsOfRows(), (torch.randn(4, 3),), dynamic_shapes={"x": {0: Dim("batch")}})
except torch._dynamo.exc.UserError as error:
    print("UserError:", "\n".join(str(error).splitlines()[:4]))
