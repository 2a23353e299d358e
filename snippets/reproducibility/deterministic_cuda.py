# marks: cuda
# estimate: 10
import os

import torch

torch.manual_seed(0)
torch.use_deterministic_algorithms(True)
print("CUBLAS_WORKSPACE_CONFIG:", os.environ.get("CUBLAS_WORKSPACE_CONFIG"))
print("cudnn.deterministic:", torch.backends.cudnn.deterministic, "| cudnn.benchmark:", torch.backends.cudnn.benchmark)

try:
    torch.histc(torch.rand(1000, device="cuda"), bins=10)
except RuntimeError as error:
    print("RuntimeError:", error)
counts = torch.bincount(torch.randint(0, 10, (1000,), device="cuda"), minlength=10)
print("bincount without weights, deterministic mode, counted:", counts.sum().item())

a = torch.randn(2048, 2048, device="cuda")
print("matmul twice, bit-identical:", torch.equal(a @ a, a @ a))

index = torch.randint(0, 10, (1_000_000,), device="cuda")
source = torch.randn(1_000_000, device="cuda")


def index_add_runs_identical(runs=10):
    sums = [torch.zeros(10, device="cuda").index_add_(0, index, source) for _ in range(runs)]
    return all(torch.equal(sums[0], other) for other in sums[1:])


print("index_add_, deterministic mode, 10 runs bit-identical:", index_add_runs_identical())
torch.use_deterministic_algorithms(False)
print("index_add_, determinism off, 10 runs bit-identical:", index_add_runs_identical())
