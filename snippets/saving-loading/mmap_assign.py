import torch
from torch import nn


def backing(tensor):
    """What /proc/self/maps says holds the tensor's memory: a file, or anonymous memory."""
    address = tensor.data_ptr()
    with open("/proc/self/maps") as maps:
        lines = maps.read().splitlines()
    for line in lines:
        fields = line.split()
        start, end = (int(part, 16) for part in fields[0].split("-"))
        if start <= address < end:
            path = fields[5] if len(fields) > 5 else ""
            return f"file {path.rsplit('/', 1)[-1]} ({fields[1]})" if path.startswith("/") else "anonymous memory"


torch.manual_seed(0)
torch.save(nn.Linear(1024, 1024).state_dict(), "checkpoint.pt")
state = torch.load("checkpoint.pt", mmap=True)
print("torch.load(mmap=True):", backing(state["weight"]))

with torch.device("meta"):
    model = nn.Linear(1024, 1024)
print("built on meta:", model.weight.device)
model.load_state_dict(state, assign=True)
print("load_state_dict(assign=True):", model.weight.device, backing(model.weight))

copied = nn.Linear(1024, 1024)
copied.load_state_dict(torch.load("checkpoint.pt", mmap=True))
print("load_state_dict() into a built model:", backing(copied.weight))

again = nn.Linear(1024, 1024)
again.load_state_dict(state)
print("the dict that assign=True used, loaded again:", "shares memory with model:",
      again.weight.data_ptr() == model.weight.data_ptr())
torch.save(state, "converted.pt")
print("saved with the dict:", torch.load("converted.pt")._metadata[""])

with torch.no_grad():
    model.weight.zero_()
print("file unchanged after writing to the parameter:", bool(torch.load("checkpoint.pt")["weight"].any()))
