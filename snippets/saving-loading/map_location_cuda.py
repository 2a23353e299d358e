# marks: cuda
# estimate: 15
import os
import subprocess
import sys

import torch

torch.manual_seed(0)
torch.save({"weight": torch.randn(2, 2, device="cuda")}, "from_gpu.pt")
print("saved from:", torch.load("from_gpu.pt")["weight"].device)

LOAD_ON_A_CPU_MACHINE = """
import torch
print("CUDA available:", torch.cuda.is_available())
try:
    torch.load("from_gpu.pt")
except RuntimeError as error:
    print("RuntimeError:", error)
print("map_location='cpu':", torch.load("from_gpu.pt", map_location="cpu")["weight"].device)
"""
no_gpu = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}  # the same machine, with its GPU hidden
done = subprocess.run([sys.executable, "-c", LOAD_ON_A_CPU_MACHINE], env=no_gpu, capture_output=True, text=True)
print(done.stdout, end="")
done.check_returncode()
