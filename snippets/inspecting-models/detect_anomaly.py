import warnings

import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([1.0, 2.0])

distance = ((a - b) ** 2).sum().sqrt()
distance.backward()
print("distance:", distance.item(), "| a.grad:", a.grad)
node, chain = distance.grad_fn, []
while node is not None:
    chain.append(type(node).__name__)
    node = node.next_functions[0][0] if node.next_functions else None
print("backward visits:", " -> ".join(chain))

a.grad = None
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        distance = ((a - b) ** 2).sum().sqrt()
        try:
            distance.backward()
        except RuntimeError as error:
            print("RuntimeError:", error)
for warning in caught:
    print(f"{warning.category.__name__}: {str(warning.message).splitlines()[0]}")

a.grad = None
distance = torch.linalg.vector_norm(a - b)
distance.backward()
print("vector_norm:", distance.item(), "| a.grad:", a.grad)
