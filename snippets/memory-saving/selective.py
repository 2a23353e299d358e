# figure: save_map=save_map
import functools
from collections import Counter

import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

MATMULS = {torch.ops.aten.mm.default, torch.ops.aten.addmm.default, torch.ops.aten.bmm.default}
MAPPED = ("addmm", "gelu", "add")  # the block's own operators; views of the weights (aten.t) cost no memory
decisions = Counter()


def keep_matmuls(ctx, op, *args, **kwargs):
    # called once per operator in the forward pass, never during recomputation
    decision = CheckpointPolicy.MUST_SAVE if op in MATMULS else CheckpointPolicy.PREFER_RECOMPUTE
    decisions[decision.name, op.overloadpacket.__name__] += 1
    return decision


class OpLog(TorchDispatchMode):
    """Which of the block's operators run, in each pass, and where their outputs live."""

    def __init__(self):
        super().__init__()
        self.inside_block, self.phase, self.ran = False, "forward", []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if self.inside_block and func.overloadpacket.__name__ in MAPPED:
            self.ran.append((self.phase, func.overloadpacket.__name__, out.untyped_storage().data_ptr()))
        return out


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1, self.act, self.fc2 = nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width)
        self.log = OpLog()

    def forward(self, x):
        self.log.inside_block = True
        try:
            return x + self.fc2(self.act(self.fc1(x)))
        finally:  # also when checkpoint's early stop ends a recomputation
            self.log.inside_block = False


def run(block, x, variant):
    """One forward and backward; returns the state of each operator's output, and the gradients."""
    kept = set()  # storages held for backward: saved by autograd, or cached by the policy

    def pack(tensor):
        kept.add(tensor.untyped_storage().data_ptr())
        return tensor

    def keep_and_note(ctx, op, *args, **kwargs):
        decision = keep_matmuls(ctx, op, *args, **kwargs)
        if decision == CheckpointPolicy.MUST_SAVE:
            kept.add(ctx.op_output.untyped_storage().data_ptr())
        return decision

    forward = {
        "no checkpoint": lambda: block(x),
        "checkpoint": lambda: checkpoint(block, x, use_reentrant=False),
        "selective checkpoint": lambda: checkpoint(
            block, x, use_reentrant=False,
            context_fn=functools.partial(create_selective_checkpoint_contexts, keep_and_note)),
    }[variant]
    block.zero_grad()
    block.log = OpLog()
    with block.log, torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        loss = forward().pow(2).mean()
        block.log.phase = "backward"
        loss.backward()
    return states(block.log.ran, kept), [p.grad.clone() for p in block.parameters()]


def states(ran, kept):
    forward = [(name, ptr) for phase, name, ptr in ran if phase == "forward"]
    again = Counter(name for phase, name, _ in ran if phase == "backward")
    seen, result = Counter(), []
    for name, ptr in forward:
        seen[name] += 1
        if seen[name] <= again[name]:
            result.append("recomputed")
        else:
            result.append("saved" if ptr in kept else "freed")
    return result


torch.manual_seed(0)
block = Block(16)
x = torch.randn(8, 16)
rows, grads = [], {}
for name in ("no checkpoint", "checkpoint", "selective checkpoint"):
    row, grads[name] = run(block, x, name)
    rows.append({"variant": name, "states": row})
print("policy decisions:", ", ".join(f"{d} {op} x{n}" for (d, op), n in sorted(decisions.items())))
ops = ["addmm #1", "gelu", "addmm #2", "add"]
for row in rows:
    print(f"{row['variant']}: " + ", ".join(f"{op} {state}" for op, state in zip(ops, row["states"], strict=True)))
same = all(torch.allclose(a, b) for g in grads.values() for a, b in zip(grads["no checkpoint"], g, strict=True))
print("same gradients in all three:", same)
save_map = {"ops": ops, "rows": rows}

# pitfall: an operator packet (torch.ops.aten.addmm) is not one of its overloads (.default)
print("packet == overload:", torch.ops.aten.addmm == torch.ops.aten.addmm.default)
try:
    create_selective_checkpoint_contexts([torch.ops.aten.addmm])
except ValueError as error:
    print("ValueError:", error)
