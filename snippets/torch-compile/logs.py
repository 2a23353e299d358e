# launch: python
import torch

torch.set_num_threads(1)
torch._logging.set_logs(graph_breaks=True)


def normalize(x):
    x = x - x.mean()
    if x.std().item() > 1:
        x = x / x.std()
    return x


torch.compile(normalize, backend="eager")(torch.arange(4.0))

torch._logging.set_logs(recompiles=True, guards=True)


@torch.compile(backend="eager")
def scale(x):
    return x * 2 + 1


scale(torch.ones(4))
scale(torch.ones(8))
