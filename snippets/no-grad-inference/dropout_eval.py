import torch
from torch import nn

torch.manual_seed(0)
dropout = nn.Dropout(p=0.5)
x = torch.ones(8)

with torch.no_grad():
    print("train():", dropout(x))
    dropout.eval()
    print("eval(): ", dropout(x))
