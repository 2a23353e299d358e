import pickle

import torch


class Payload:
    def __reduce__(self):  # pickle stores "call print(...)" to rebuild this object
        return (print, ("this line ran inside torch.load",))


torch.save({"weight": torch.ones(2), "extra": Payload()}, "downloaded.pt")

try:
    torch.load("downloaded.pt")
except pickle.UnpicklingError as error:
    print("UnpicklingError:", next(line.strip() for line in str(error).splitlines() if "WeightsUnpickler" in line))

print("weights_only=False:")
print(torch.load("downloaded.pt", weights_only=False))
