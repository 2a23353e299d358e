import json
import struct
import textwrap

import torch
from safetensors.torch import load_file, load_model, save_file, save_model
from torch import nn


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.embed.weight  # tied: one tensor, two names


torch.manual_seed(0)
model = TinyLM()
try:
    save_file(model.state_dict(), "model.safetensors")
except RuntimeError as error:
    print("RuntimeError:", textwrap.dedent(str(error)).strip())

save_model(model, "model.safetensors")
with open("model.safetensors", "rb") as file:
    header_size = struct.unpack("<Q", file.read(8))[0]
    for name, entry in json.loads(file.read(header_size)).items():
        print(f"header: {name}: {entry}")

print("tensors in the file:", list(load_file("model.safetensors")))
restored = TinyLM()
print("load_model (missing, unexpected):", load_model(restored, "model.safetensors"))
try:
    save_file({"head.weight": model.head.weight.t()}, "transposed.safetensors")
except ValueError as error:
    print("ValueError:", str(error).split(". ")[0])

print("same weights:", torch.equal(restored.embed.weight, model.embed.weight),
      "| still tied:", restored.head.weight is restored.embed.weight)
