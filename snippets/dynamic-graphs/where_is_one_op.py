import torch

cond = torch.tensor([True, False])
output = torch.where(cond, torch.tensor([1, 2]), torch.tensor([3, 4]))
print("seed example:", output, "| grad_fn:", output.grad_fn)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
for cond in (torch.tensor([True, False]), torch.tensor([False, True])):
    out = torch.where(cond, a, b)
    inputs = [type(fn).__name__ for fn, _ in out.grad_fn.next_functions if fn is not None]
    print(f"cond={cond.tolist()}: {type(out.grad_fn).__name__} <- {inputs}")

(out * torch.tensor([5.0, 7.0])).sum().backward()
print("upstream [5, 7] -> a.grad:", a.grad, "| b.grad:", b.grad)

out = torch.where(cond, a, torch.tensor([3.0, 4.0]))
inputs = [type(fn).__name__ if fn else None for fn, _ in out.grad_fn.next_functions]
print(f"constant b: {type(out.grad_fn).__name__} <- {inputs}")

try:
    if cond:
        pass
except RuntimeError as error:
    print("RuntimeError:", error)
