import io

import torch
from torch import nn


def make_model():
    return nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 4))


torch.manual_seed(0)
model = make_model()
model(torch.randn(32, 8))
state = model.state_dict()
print("keys:", list(state))

buffer = io.BytesIO()
torch.save(state, buffer)
print("serialized bytes:", buffer.getbuffer().nbytes)
buffer.seek(0)
loaded = torch.load(buffer, weights_only=True)

restored = make_model()
print(restored.load_state_dict(loaded))
same = all(torch.equal(state[k], v) for k, v in restored.state_dict().items())
print("every tensor equal:", same)

weights_only = {k: v for k, v in loaded.items() if "running" not in k}
try:
    make_model().load_state_dict(weights_only)
except RuntimeError as error:
    print("RuntimeError:", str(error).splitlines()[1].strip())
print(make_model().load_state_dict(weights_only, strict=False))

x = torch.randn(4, 8)
model.eval()
restored.eval()
print("same outputs:", torch.equal(model(x), restored(x)))
