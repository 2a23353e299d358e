import os

import torch
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.format_utils import dcp_to_torch_save, torch_save_to_dcp

torch.manual_seed(0)
model = nn.Linear(4, 2)
dcp.save({"model": model.state_dict()}, checkpoint_id="step_100")
print("DCP directory:", sorted(os.listdir("step_100")))

dcp_to_torch_save("step_100", "step_100.pt")
state = torch.load("step_100.pt")
print("one file:", {key: list(value) for key, value in state.items()})

torch_save_to_dcp("step_100.pt", "step_100_again")
restored = nn.Linear(4, 2)
target = {"model": restored.state_dict()}
dcp.load(target, checkpoint_id="step_100_again")
restored.load_state_dict(target["model"])
print("round trip, same weights:", torch.equal(restored.weight, model.weight))
