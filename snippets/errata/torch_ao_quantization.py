# warns: DeprecationWarning: torch.ao.quantization is deprecated -- the page shows the deprecation
# warns: UserWarning: quantized tensor creation functions -- the quantized tensors it makes are deprecated too
import warnings

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 4)).eval()

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    quantized = torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)

api = next(w for w in caught if issubclass(w.category, DeprecationWarning))
print(f"{api.category.__name__}: {str(api.message).splitlines()[0].strip()}")
print("  ...", str(api.message).splitlines()[-1].strip())
tensors = next(w for w in caught if "quantized tensor creation" in str(w.message))
print(f"{tensors.category.__name__}: {str(tensors.message).split(' Please see')[0]}")
print("torch version:", torch.__version__.split("+")[0])
print("the layers it made:", type(quantized[0]).__module__ + "." + type(quantized[0]).__name__)
