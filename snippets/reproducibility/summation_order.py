import torch

print("(0.1 + 0.2) + 0.3 == 0.1 + (0.2 + 0.3):", (0.1 + 0.2) + 0.3 == 0.1 + (0.2 + 0.3))

torch.manual_seed(0)
x = torch.randn(1_000_000)
print("same numbers, reversed order, same float32 sum:", torch.equal(x.sum(), x.flip(0).sum()))
print("float32 sum equals float64 sum rounded to float32:", torch.equal(x.sum(), x.double().sum().float()))


def float32_sums(threads):
    torch.set_num_threads(threads)
    return [torch.randn(1_000_000, generator=torch.Generator().manual_seed(seed)).sum() for seed in range(10)]


one, two = float32_sums(1), float32_sums(2)
print("ten tensors of a million numbers, 1 or 2 threads, every float32 sum the same:",
      all(torch.equal(a, b) for a, b in zip(one, two, strict=True)))
