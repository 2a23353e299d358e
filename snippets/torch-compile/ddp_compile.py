# marks: distributed
# timeout: 120
# launch: torchrun --standalone --nproc-per-node=2
import gc

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

graph_sizes = []


def counting_backend(graph_module, example_inputs):
    graph_sizes.append(sum(node.op == "call_function" for node in graph_module.graph.nodes))
    return graph_module.forward


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(1024, 1024) for _ in range(4))

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


dist.init_process_group("gloo")
x = torch.randn(8, 1024)
for optimize_ddp in (True, False):
    torch._dynamo.reset()
    torch._dynamo.config.optimize_ddp = optimize_ddp
    graph_sizes.clear()
    torch.manual_seed(0)
    model = MLP()
    model.compile(backend=counting_backend)
    ddp_model = DDP(model, bucket_cap_mb=4)
    ddp_model(x).sum().backward()
    print(f"optimize_ddp={optimize_ddp}: {len(graph_sizes)} graph(s), operators per graph: {graph_sizes}")

del model, ddp_model, x
gc.collect()
dist.barrier()
dist.destroy_process_group()
