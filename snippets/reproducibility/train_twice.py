import random

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def train(seed):
    seed_everything(seed)
    data = TensorDataset(torch.randn(256, 16), torch.randn(256, 1))
    loader = DataLoader(data, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(seed))
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    for _ in range(3):
        for inputs, targets in loader:
            loss = nn.functional.mse_loss(model(inputs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return [p.detach().clone() for p in model.parameters()]


def bit_identical(a, b):
    return all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


torch.use_deterministic_algorithms(True)
first, second, other_seed = train(seed=0), train(seed=0), train(seed=1)
assert bit_identical(first, second)
print("two runs with seed 0, every parameter bit-identical:", bit_identical(first, second))
print("seed 0 against seed 1, bit-identical:", bit_identical(first, other_seed))
