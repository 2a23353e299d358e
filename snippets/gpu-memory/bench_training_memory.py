# method: sequential -- the sizes are counted, not timed, so measuring batch 1 before batch 8 cannot change them
import torch
from torch import nn

MiB = 2**20
SEQUENCE, WIDTH = 128, 128

torch.manual_seed(0)
model = nn.ModuleList(nn.TransformerEncoderLayer(WIDTH, nhead=4, dim_feedforward=4 * WIDTH, batch_first=True)
                      for _ in range(2))
optimizer = torch.optim.AdamW(model.parameters())


def saved_activations(batch):
    """Bytes autograd keeps for the backward pass, parameters excluded, each storage once."""
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    saved = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in params:
            saved[storage.data_ptr()] = storage.nbytes()
        return tensor

    x = torch.randn(batch, SEQUENCE, WIDTH)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        for layer in model:
            x = layer(x)
        loss = x.square().mean()
    loss.backward()
    return sum(saved.values())


def state_bytes():
    return sum(t.nbytes for state in optimizer.state.values() for t in state.values() if torch.is_tensor(t))


rows = {}
for batch in (1, 8):
    activations = saved_activations(batch)
    optimizer.step()
    optimizer.zero_grad(set_to_none=False)
    rows[f"batch {batch}"] = (sum(p.nbytes for p in model.parameters()),
                              sum(p.grad.nbytes for p in model.parameters()), state_bytes(), activations)

print(f"threads: {torch.get_num_threads()}")
print("| variant | parameters (MiB) | gradients (MiB) | AdamW state (MiB) | activations (MiB) "
      "| activations (% of total) |")
print("|---|---:|---:|---:|---:|---:|")
for name, sizes in rows.items():
    share = 100 * sizes[-1] / sum(sizes)
    print(f"| {name} | " + " | ".join(f"{size / MiB:.2f}" for size in sizes) + f" | {share:.1f} |")
