import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(4, 2).eval()


@torch.inference_mode()
def predict(batch):
    return model(batch).argmax(dim=1)


print(predict(torch.randn(3, 4)))
print("grad mode after the call:", torch.is_grad_enabled())
