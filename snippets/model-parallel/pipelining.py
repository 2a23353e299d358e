# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import copy
import gc
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.distributed.pipelining import PipelineStage, ScheduleGPipe


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


rank = int(os.environ["RANK"])
world_size = int(os.environ["WORLD_SIZE"])
device, backend = pick_device()
if backend == "nccl":
    torch.cuda.set_device(device)
dist.init_process_group(backend, device_id=device if backend == "nccl" else None)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
reference = copy.deepcopy(model)
x, y = torch.randn(8, 16), torch.randn(8, 4)

layers = model[:2] if rank == 0 else model[2:]
stage = PipelineStage(layers.to(device), stage_index=rank, num_stages=world_size, device=device)
schedule = ScheduleGPipe(stage, n_microbatches=4, loss_fn=nn.MSELoss())
print(f"stage {rank}: {[type(m).__name__ for m in layers]}")

if rank == 0:
    schedule.step(x.to(device))
else:
    losses = []
    schedule.step(target=y.to(device), losses=losses)
    print("micro-batch losses:", [round(loss.item(), 4) for loss in losses])

full_loss = nn.functional.mse_loss(reference(x), y)
full_loss.backward()
print(f"full-batch loss of the unsplit model: {full_loss.item():.4f}")
mine = reference[:2] if rank == 0 else reference[2:]
same = all(
    torch.allclose(p.grad.cpu(), q.grad, atol=1e-6) for p, q in zip(layers.parameters(), mine.parameters(), strict=True)
)
print("stage gradients equal the unsplit model's:", same)

del model, reference, layers, mine, stage, schedule, full_loss
gc.collect()
dist.barrier()
dist.destroy_process_group()
