import torch
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(8))


def indices_seen(loader):
    return [index for (batch,) in loader for index in batch.tolist()]


for rank in range(2):
    without = DataLoader(dataset, batch_size=2)
    sampler = DistributedSampler(dataset, num_replicas=2, rank=rank, shuffle=False)
    with_sampler = DataLoader(dataset, batch_size=2, sampler=sampler)
    print(f"rank {rank}: without a sampler {indices_seen(without)}")
    print(f"rank {rank}: with DistributedSampler {indices_seen(with_sampler)}")
