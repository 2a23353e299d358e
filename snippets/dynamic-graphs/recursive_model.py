import torch
from torch import nn


class TreeEncoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.combine = nn.Linear(2 * dim, dim)

    def forward(self, tree):
        if isinstance(tree, torch.Tensor):
            return tree
        left, right = tree
        return torch.tanh(self.combine(torch.cat([self(left), self(right)])))


def count_nodes(grad_fn, name):
    seen, stack, count = set(), [grad_fn], 0
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        count += type(node).__name__ == name
        stack.extend(next_fn for next_fn, _ in node.next_functions)
    return count


torch.manual_seed(0)
encoder = TreeEncoder(dim=4)
a, b, c, d = torch.randn(4, 4)

for tree in [(a, b), (((a, b), c), d)]:
    encoder.zero_grad()
    out = encoder(tree).sum()
    out.backward()
    print(f"combine applied {count_nodes(out.grad_fn, 'AddmmBackward0')} time(s);",
          f"weight.grad norm = {encoder.combine.weight.grad.norm():.4f}")
