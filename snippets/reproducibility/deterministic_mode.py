import torch

index, values = torch.tensor([0, 0, 1]), torch.tensor([1.0, 2.0, 3.0])
torch.use_deterministic_algorithms(True)

try:
    torch.zeros(4).put_(index, values, accumulate=False)
except RuntimeError as error:
    print("RuntimeError:", error)

try:
    torch.zeros(4).put_(torch.tensor([0, 1, 2]), values, accumulate=False)
except RuntimeError as error:
    print("put_ with unique indices, accumulate=False:", type(error).__name__)

print("put_ with accumulate=True:", torch.zeros(4).put_(index, values, accumulate=True))
print("torch.empty(3):", torch.empty(3))
print("torch.empty(3, dtype=torch.int32):", torch.empty(3, dtype=torch.int32))
print("torch.empty(3, dtype=torch.bool):", torch.empty(3, dtype=torch.bool))
print("Tensor.new_empty(3):", torch.ones(1).new_empty(3))
print("torch.ones(1).resize_(3):", torch.ones(1).resize_(3))

torch.use_deterministic_algorithms(True, warn_only=True)
torch.zeros(4).put_(index, values, accumulate=False)

torch.use_deterministic_algorithms(False)
print("deterministic algorithms enabled:", torch.are_deterministic_algorithms_enabled())
