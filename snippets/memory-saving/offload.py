import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 1024), nn.GELU(), nn.Linear(1024, 256))
x = torch.randn(64, 256)
params = {p.untyped_storage().data_ptr() for p in model.parameters()}


def held_for_backward(offload):
    """Runs save_on_cpu's own hooks inside a counting hook: what autograd keeps is what they return."""
    pack_inner = offload.pack_hook if offload else None
    held, copies, weight_copies = {}, 0, 0

    def pack(tensor):
        nonlocal copies, weight_copies
        packed = pack_inner(tensor) if offload else tensor
        kept = (packed[1] if offload else packed).untyped_storage()
        copied = kept.data_ptr() != tensor.untyped_storage().data_ptr()
        copies += copied
        weight_copies += copied and tensor.untyped_storage().data_ptr() in params
        if kept.data_ptr() not in params:
            held[kept.data_ptr()] = kept.nbytes()
        return packed

    unpack = offload.unpack_hook if offload else (lambda tensor: tensor)
    model.zero_grad()
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        loss = model(x).pow(2).mean()
    loss.backward()
    return sum(held.values()) / 2**20, copies, weight_copies, [p.grad.clone() for p in model.parameters()]


variants = {
    "no offloading": None,
    "save_on_cpu()": torch.autograd.graph.save_on_cpu(),
    "save_on_cpu(pin_memory=True)": torch.autograd.graph.save_on_cpu(pin_memory=True),
}
grads = {}
for name, offload in variants.items():
    mib, copies, weight_copies, grads[name] = held_for_backward(offload)
    print(f"{name}: {mib:.3f} MiB held for backward besides the parameters, "
          f"{copies} saved tensors copied ({weight_copies} of them a weight)")
same = all(torch.equal(a, b) for g in grads.values() for a, b in zip(grads["no offloading"], g, strict=True))
print("same gradients:", same)
