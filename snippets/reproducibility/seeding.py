import random

import numpy as np
import torch


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def draw():
    return random.random(), np.random.rand(), torch.rand(1).item()


seed_everything(0)
first = draw()
seed_everything(0)
print("same draws after seeding again:", draw() == first)

torch.manual_seed(0)
print("torch.manual_seed alone repeats Python's random:", random.random() == first[0])


def permutation(other_draws, generator=None):
    torch.manual_seed(0)
    torch.rand(other_draws)
    return torch.randperm(6, generator=generator).tolist()


print("global generator, after 0 or 5 other draws: ", permutation(0), permutation(5))
print("own generator, after 0 or 5 other draws:    ",
      permutation(0, torch.Generator().manual_seed(0)), permutation(5, torch.Generator().manual_seed(0)))
