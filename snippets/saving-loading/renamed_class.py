import pickle

import torch


class Config:
    def __init__(self, lr):
        self.lr = lr


torch.save({"config": Config(0.1)}, "config.pt")
print("config.pt needs:", torch.serialization.get_unsafe_globals_in_checkpoint("config.pt"))
del Config


class TrainConfig:  # the same class, renamed since the file was written
    def __init__(self, lr):
        self.lr = lr


try:
    with torch.serialization.safe_globals([TrainConfig]):
        torch.load("config.pt")
except pickle.UnpicklingError as error:
    print("UnpicklingError:", next(line.strip() for line in str(error).splitlines() if "WeightsUnpickler" in line))
with torch.serialization.safe_globals([(TrainConfig, "__main__.Config")]):
    config = torch.load("config.pt")["config"]
print("loaded as:", type(config).__name__, vars(config))
