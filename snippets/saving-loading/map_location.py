# notebook: own-process -- the tagger it registers stays for the whole process: every later torch.save would use it
import torch

torch.manual_seed(0)
# This machine has no GPU. A file saved from CUDA tensors records "cuda:0" as the location of
# each storage; this tagger writes that same tag for every storage saved by this process.
torch.serialization.register_package(0, lambda storage: "cuda:0", lambda storage, location: None)
torch.save({"weight": torch.randn(2, 2)}, "from_gpu.pt")

try:
    torch.load("from_gpu.pt")
except RuntimeError as error:
    print("RuntimeError:", error)

for map_location in ("cpu", torch.device("cpu"), {"cuda:0": "cpu"}):
    state = torch.load("from_gpu.pt", map_location=map_location)
    print(f"map_location={map_location!r}:", state["weight"].device)
