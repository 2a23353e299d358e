import argparse
import pickle

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 2)
args = argparse.Namespace(lr=0.1, epochs=10)
best_loss = np.float64(0.25)  # e.g. from np.mean(losses)
torch.save({"model": model.state_dict(), "args": args, "best_loss": best_loss}, "old.pt")

try:
    torch.load("old.pt")
except pickle.UnpicklingError as error:
    print("UnpicklingError:", next(line.strip() for line in str(error).splitlines() if "WeightsUnpickler" in line))

needed = sorted(torch.serialization.get_unsafe_globals_in_checkpoint("old.pt"))
print("old.pt needs:", needed)

allowed = [argparse.Namespace, np._core.multiarray.scalar, np.dtype]
try:
    with torch.serialization.safe_globals(allowed):
        torch.load("old.pt")
except pickle.UnpicklingError as error:
    print("UnpicklingError:", next(line.strip() for line in str(error).splitlines() if "Can only build" in line))

allowed.append(np.dtypes.Float64DType)
with torch.serialization.safe_globals(allowed):
    checkpoint = torch.load("old.pt")
print("loaded:", checkpoint["args"], checkpoint["best_loss"])

torch.save({"model": model.state_dict(), "args": vars(args), "best_loss": float(best_loss)}, "new.pt")
print("new.pt needs:", torch.serialization.get_unsafe_globals_in_checkpoint("new.pt"))
print("loaded:", torch.load("new.pt")["args"])
