import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))
        self.forward_calls = 0

    def forward(self, x):
        self.forward_calls += 1
        return x + self.net(x)


torch.manual_seed(0)
blocks = nn.ModuleList(Block(16) for _ in range(3))
x = torch.randn(8, 16)

grads = {}
for use_checkpoint in (False, True):
    blocks.zero_grad()
    for block in blocks:
        block.forward_calls = 0
    h = x
    for block in blocks:
        h = checkpoint(block, h, use_reentrant=False) if use_checkpoint else block(h)
    h.pow(2).mean().backward()
    grads[use_checkpoint] = [p.grad.clone() for p in blocks.parameters()]
    calls = [block.forward_calls for block in blocks]
    print(f"checkpoint={use_checkpoint}: forward calls per block {calls}")

same = all(torch.allclose(a, b) for a, b in zip(grads[False], grads[True], strict=True))
print("same gradients with and without checkpointing:", same)
