import os
import pickle

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


torch.manual_seed(0)
model = Net()
torch.save(model.state_dict(), "weights.pt")
torch.save(model, "model.pt")

state = torch.load("weights.pt")
print(type(state).__name__, {name: tuple(t.shape) for name, t in state.items()})
restored = Net()
print(restored.load_state_dict(state))
print("same weights:", torch.equal(restored.fc.weight, model.fc.weight))
print("state_dict() shares the parameters' memory:",
      model.state_dict()["fc.weight"].data_ptr() == model.fc.weight.data_ptr())
print("map_location='meta':", {name: (t.device.type, tuple(t.shape)) for name, t in
                               torch.load("weights.pt", map_location="meta").items()})

big = torch.randn(1024, 1024)
torch.save(big[:2], "slice.pt")
torch.save(big[:2].clone(), "clone.pt")
print("saved file (KiB): big[:2]", os.path.getsize("slice.pt") // 1024,
      "| big[:2].clone()", os.path.getsize("clone.pt") // 1024)

print("model.pt needs:", sorted(torch.serialization.get_unsafe_globals_in_checkpoint("model.pt")))
try:
    torch.load("model.pt")
except pickle.UnpicklingError as error:
    print("UnpicklingError:", next(line.strip() for line in str(error).splitlines() if "WeightsUnpickler" in line))

del Net  # as if the class had been renamed or moved since the file was saved
try:
    torch.load("model.pt", weights_only=False)  # our own file, written above
except AttributeError as error:
    print("AttributeError:", str(error).split(" on <module")[0])  # the rest names the script's path
