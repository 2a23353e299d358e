import torch

x = torch.tensor(2.0, requires_grad=True)
trunk = x.exp()
loss_a = trunk * x
loss_b = trunk.sin()

loss_a.backward(retain_graph=True)
print("after loss_a:", round(x.grad.item(), 4))
loss_b.backward()
print("after loss_b (accumulated):", round(x.grad.item(), 4))
print("loss_a's MulBackward0 still holds trunk:", round(loss_a.grad_fn._saved_self.item(), 4))
try:
    trunk.grad_fn._saved_result
except RuntimeError:
    print("the trunk's ExpBackward0 no longer holds its result")

try:
    loss_a.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

w = torch.tensor([1.0, 2.0], requires_grad=True)
total = (w + 1).sum()
total.backward()
total.backward()
print("two backward passes without saved tensors, w.grad:", w.grad)
