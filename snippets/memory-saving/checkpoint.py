import torch
from torch import nn
from torch.utils.checkpoint import checkpoint, set_checkpoint_early_stop


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))
        self.forward_calls = 0
        self.linear2_runs = 0
        self.net[2].register_forward_hook(self.count_linear2)

    def count_linear2(self, module, args, output):
        self.linear2_runs += 1

    def forward(self, x):
        self.forward_calls += 1
        return x + self.net(x)


torch.manual_seed(0)
blocks = nn.ModuleList(Block(16) for _ in range(3))
x = torch.randn(8, 16)

grads = {}
variants = {"no checkpoint": (False, True), "checkpoint": (True, True), "checkpoint, early_stop=False": (True, False)}
for name, (use_checkpoint, early_stop) in variants.items():
    blocks.zero_grad()
    for block in blocks:
        block.forward_calls = block.linear2_runs = 0
    with set_checkpoint_early_stop(early_stop):
        h = x
        for block in blocks:
            h = checkpoint(block, h, use_reentrant=False) if use_checkpoint else block(h)
        h.pow(2).mean().backward()
    grads[name] = [p.grad.clone() for p in blocks.parameters()]
    calls = [block.forward_calls for block in blocks]
    runs = [block.linear2_runs for block in blocks]
    print(f"{name}: forward entered {calls}, second Linear ran {runs}")

same = all(
    torch.allclose(a, b)
    for other in list(variants)[1:]
    for a, b in zip(grads["no checkpoint"], grads[other], strict=True)
)
print("same gradients in all three:", same)
