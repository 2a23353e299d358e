import torch
from torch.utils.data import DistributedSampler, TensorDataset

dataset = TensorDataset(torch.arange(10))

for set_epoch in (False, True):
    print("with set_epoch" if set_epoch else "without set_epoch")
    for epoch in range(2):
        shards = []
        for rank in range(2):
            sampler = DistributedSampler(dataset, num_replicas=2, rank=rank, shuffle=True, seed=0)
            if set_epoch:
                sampler.set_epoch(epoch)
            shards.append(list(sampler))
        print(f"  epoch {epoch}: rank 0 {shards[0]}  rank 1 {shards[1]}")

odd = TensorDataset(torch.arange(9))
padded = [list(DistributedSampler(odd, num_replicas=2, rank=r, shuffle=False)) for r in range(2)]
print("9 samples, 2 ranks:", padded)
