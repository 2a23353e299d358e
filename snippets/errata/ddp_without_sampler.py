import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

# "cuda:gloo": a group whose only backend serves CUDA tensors, as with "nccl"
dist.init_process_group("cuda:gloo", store=dist.HashStore(), rank=0, world_size=1)
try:
    torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(2, 2))  # a model left on the CPU
except RuntimeError as error:
    print("DDP(model) on the CPU: RuntimeError:", error)
dist.destroy_process_group()

dataset = TensorDataset(torch.arange(8))


def indices_seen(loader):
    return [index for (batch,) in loader for index in batch.tolist()]


for rank in range(2):
    without = DataLoader(dataset, batch_size=2)
    sampler = DistributedSampler(dataset, num_replicas=2, rank=rank, shuffle=False)
    with_sampler = DataLoader(dataset, batch_size=2, sampler=sampler)
    print(f"rank {rank}: without a sampler {indices_seen(without)}")
    print(f"rank {rank}: with DistributedSampler {indices_seen(with_sampler)}")
