# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
# figure: collectives=module_collectives
import gc
import os
import warnings

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor.debug import CommDebugMode
from torch.distributed.tensor.parallel import (
    ColwiseParallel,
    PrepareModuleInput,
    RowwiseParallel,
    SequenceParallel,
    loss_parallel,
    parallelize_module,
)

# CommDebugMode hooks the backward of every module; the embedding's integer input has no gradient.
warnings.filterwarnings("ignore", "Full backward hook is firing", UserWarning)
VOCAB, DIM, HEADS, SEQ = 64, 32, 4, 8


def pick_device():
    local_rank, local_world_size = int(os.environ["LOCAL_RANK"]), int(os.environ["LOCAL_WORLD_SIZE"])
    visible = torch.cuda.device_count()
    if visible >= local_world_size:
        return torch.device("cuda", local_rank), "nccl"
    if visible == 1:
        return torch.device("cuda", 0), "nccl"
    if visible == 0:
        return torch.device("cpu"), "gloo"
    raise SystemExit(f"{visible} GPUs visible for {local_world_size} processes on this machine: "
                     f"need {local_world_size}, exactly 1, or none")


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(DIM, DIM, bias=False) for _ in range(4))

    def forward(self, x):
        batch, seq, _ = x.shape
        # -1 heads, not HEADS: after ColwiseParallel each rank computes HEADS / world size of them
        q, k, v = (w(x).view(batch, seq, -1, DIM // HEADS).transpose(1, 2) for w in (self.wq, self.wk, self.wv))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.wo(out.transpose(1, 2).reshape(batch, seq, -1))


class FeedForward(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1, self.w2 = nn.Linear(DIM, 4 * DIM), nn.Linear(4 * DIM, DIM)

    def forward(self, x):
        return self.w2(F.gelu(self.w1(x)))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok_embeddings = nn.Embedding(VOCAB, DIM)
        self.attention_norm = nn.LayerNorm(DIM)
        self.attention = Attention()
        self.ffn_norm = nn.LayerNorm(DIM)
        self.feed_forward = FeedForward()
        self.norm = nn.LayerNorm(DIM)
        self.output = nn.Linear(DIM, VOCAB, bias=False)

    def forward(self, tokens):
        h = self.tok_embeddings(tokens)
        h = h + self.attention(self.attention_norm(h))
        h = h + self.feed_forward(self.ffn_norm(h))
        return self.output(self.norm(h))


SEQUENCE_TO_WHOLE = PrepareModuleInput(input_layouts=(Shard(1),), desired_input_layouts=(Replicate(),))
PLAN = {
    "tok_embeddings": RowwiseParallel(input_layouts=Replicate(), output_layouts=Shard(1)),
    "attention_norm": SequenceParallel(),
    "attention": SEQUENCE_TO_WHOLE,
    "attention.wq": ColwiseParallel(),
    "attention.wk": ColwiseParallel(),
    "attention.wv": ColwiseParallel(),
    "attention.wo": RowwiseParallel(output_layouts=Shard(1)),
    "ffn_norm": SequenceParallel(),
    "feed_forward": SEQUENCE_TO_WHOLE,
    "feed_forward.w1": ColwiseParallel(),
    "feed_forward.w2": RowwiseParallel(output_layouts=Shard(1)),
    "norm": SequenceParallel(),
    "output": ColwiseParallel(input_layouts=Shard(1), output_layouts=Shard(-1), use_local_output=False),
}


def placement(tensor):
    return str(tensor.placements[0]) if isinstance(tensor, DTensor) else "plain"


def layout(tensor):
    if isinstance(tensor, DTensor):
        return f"{placement(tensor)} local {tuple(tensor.to_local().shape)} of {tuple(tensor.shape)}"
    return f"a plain tensor {tuple(tensor.shape)}"


def record_layouts(model, seen):
    """What each top-level module receives (after its input style) and returns."""
    def remember(name, tensor):
        seen.setdefault(name, []).append(tensor)

    for name, module in model.named_children():
        module.register_forward_pre_hook(lambda m, args, name=name: remember(name, args[0]))
        module.register_forward_hook(lambda m, args, out, name=name: remember(name, out))


class CollectiveLog(CommDebugMode):
    """CommDebugMode that also keeps each collective, with its module and pass, in the order it ran."""

    def __init__(self):
        super().__init__()
        self.in_order = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        counted = self.get_total_counts()
        out = super().__torch_dispatch__(func, types, args, kwargs)
        if self.get_total_counts() > counted:
            tracker = self.advanced_module_tracker
            self.in_order.append((tracker.name, func._overloadpacket.__name__, tracker.is_bw))
        return out


def collectives_by_module(log, modules):
    """Each top-level module's collectives per pass; outside every module (in the loss): cross_entropy."""
    found = {name: {"forward": [], "backward": []} for name in modules}
    for tracked, kind, backward in log.in_order:
        name = tracked.split(".")[1] if "." in tracked else "cross_entropy"
        found[name]["backward" if backward else "forward"].append(kind)
    return found


def reduce_partial_grads(model):
    """All-reduce each gradient left as a partial sum (the sequence-parallel norms'), once."""
    for param in model.parameters():
        if param.grad.placements[0].is_partial():
            param.grad = param.grad.redistribute(placements=[Replicate()])


def all_reduces(comm):
    return sum(n for op, n in comm.get_comm_counts().items() if op.__name__ == "all_reduce")


def sharded_loss(model, tokens, targets):
    with loss_parallel():
        loss = F.cross_entropy(model(tokens).flatten(0, 1), targets.flatten())
        loss.backward()
    return loss.full_tensor()  # a replicated DTensor: the same value on every rank


world_size, rank = int(os.environ["WORLD_SIZE"]), int(os.environ["RANK"])
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)
mesh = init_device_mesh(device.type, (world_size,), mesh_dim_names=("tp",))

torch.manual_seed(0)
reference = Block().to(device)
model = Block().to(device)
model.load_state_dict(reference.state_dict())
model = parallelize_module(model, mesh, PLAN)
seen = {}
record_layouts(model, seen)

torch.manual_seed(1)
batches = [(torch.randint(VOCAB, (2, SEQ), device=device), torch.randint(VOCAB, (2, SEQ), device=device))
           for _ in range(world_size)]
tokens, targets = batches[0]
with CollectiveLog() as comm:
    loss = sharded_loss(model, tokens, targets)
expected = F.cross_entropy(reference(tokens).flatten(0, 1), targets.flatten())
expected.backward()
inputs = {name: placement(tensors[0]) for name, tensors in seen.items()}
inputs["cross_entropy"] = placement(seen["output"][1])
collectives = {"modules": [{"module": name, "input": inputs[name], **passes}
                           for name, passes in collectives_by_module(comm, list(inputs)).items()]}
grads_match = {name: torch.allclose(model.get_parameter(name).grad.full_tensor(),
                                    reference.get_parameter(name).grad, atol=1e-6)
               for name in ("tok_embeddings.weight", "attention_norm.weight", "attention.wq.weight",
                            "feed_forward.w2.weight", "output.weight")}

grad_placements = {name: model.get_parameter(name).grad.placements[0]
                   for name in ("tok_embeddings.weight", "attention_norm.weight", "attention.wq.weight")}

model.zero_grad()
mine = batches[rank]
mixed = sharded_loss(model, *mine)
losses = [F.cross_entropy(reference(t).flatten(0, 1), y.flatten()) for t, y in batches]
model.zero_grad()
broadcast = [DTensor.from_local(t, mesh, [Replicate()], run_check=True).to_local() for t in mine]
repaired = sharded_loss(model, *broadcast)

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
with CommDebugMode() as unreduced:
    optimizer.step()
model.zero_grad()
sharded_loss(model, tokens, targets)
with CommDebugMode() as reducing:
    reduce_partial_grads(model)
with CommDebugMode() as reduced:
    optimizer.step()

if rank == 0:
    for name in ("attention_norm", "attention", "output"):
        print(f"{name:<15} in: {layout(seen[name][0])}\n{'':<15} out: {layout(seen[name][1])}")
    print(f"loss {loss.item():.4f} | unsharded {expected.item():.4f} | allclose: {torch.allclose(loss, expected)}")
    print("gradients allclose:", ", ".join(f"{name} {ok}" for name, ok in grads_match.items()))
    print("gradient placements:", ", ".join(f"{name} {p}" for name, p in grad_placements.items()))
    print(f"AdamW step on these gradients: all_reduce {all_reduces(unreduced)} | "
          f"reducing the partial ones first: {all_reduces(reducing)}, then the step: {all_reduces(reduced)}")
    for entry in collectives["modules"]:
        passes = (f"{p} {', '.join(entry[p])}" for p in ("forward", "backward") if entry[p])
        print(f"{entry['module']:<15} {' | '.join(passes) or 'no collective'}")
    print("rank 1 fed another batch, no error raised:")
    for batch, expected_loss in enumerate(losses):
        print(f"  allclose to the unsharded loss of rank {batch}'s batch: {torch.allclose(mixed, expected_loss)}")
    print("from_local(run_check=True) broadcasts rank 0's batch: allclose to rank 0's unsharded loss:",
          torch.allclose(repaired, losses[0]))

del model, reference, optimizer, comm, seen, loss, expected, mixed, repaired, losses
gc.collect()
dist.barrier()
dist.destroy_process_group()
