import torch
from torch.utils.checkpoint import CheckpointError, checkpoint

settings = {"width": 4}  # global state the checkpointed function reads


def head(x):
    return x[:, : settings["width"]].sin()


torch.manual_seed(0)
x = torch.randn(2, 8, requires_grad=True)
out = checkpoint(head, x, use_reentrant=False)
settings["width"] = 6  # changed between the forward pass and the recomputation
try:
    out.sum().backward()
except CheckpointError as error:
    print("CheckpointError:", str(error).splitlines()[0])
    print(*str(error).splitlines()[1:4], sep="\n")
