# figure: formats=float_formats
import math

import torch

formats = []
for dtype in (torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2):
    info = torch.finfo(dtype)
    mantissa = round(-math.log2(info.eps))
    exponent = info.bits - 1 - mantissa
    formats.append({"dtype": str(dtype), "bits": info.bits, "exponent": exponent, "mantissa": mantissa,
                    "max": info.max, "tiny": info.tiny, "eps": info.eps})
    print(f"{dtype!s:<20} sign 1 + exponent {exponent} + mantissa {mantissa} bits  "
          f"max={info.max:.4g}  smallest normal={info.tiny:.3g}  eps={info.eps:.3g}")

values = torch.tensor([300.0, 500.0, 1e5, float("inf"), 1e-3, 1e-4])
print("values:              ", [f"{v:g}" for v in values.tolist()])
for dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
    print(f"cast to {dtype!s:<20}", [f"{v:g}" for v in values.to(dtype).float().tolist()])
