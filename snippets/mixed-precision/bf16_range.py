# figure: formats=float_formats
import math

import torch

formats = []
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    info = torch.finfo(dtype)
    mantissa = round(-math.log2(info.eps))
    exponent = info.bits - 1 - mantissa
    formats.append({"dtype": str(dtype), "bits": info.bits, "exponent": exponent, "mantissa": mantissa,
                    "max": info.max, "tiny": info.tiny, "eps": info.eps})
    print(f"{dtype!s:<15} sign 1 + exponent {exponent} + mantissa {mantissa} bits  "
          f"max={info.max:.3g}  smallest normal={info.tiny:.3g}  eps={info.eps:.3g}")

small_gradient = torch.tensor(1e-8)
print("1e-8 as float16: ", small_gradient.half().item())
print("1e-8 as bfloat16:", f"{small_gradient.bfloat16().item():.3g}")
print("70000 as float16:", torch.tensor(70000.0).half().item())
fp16 = torch.finfo(torch.float16)
print("smallest float16 subnormal:", f"{fp16.smallest_normal * fp16.eps:.3g}")
print("1e-7 as float16: ", f"{torch.tensor(1e-7).half().item():.3g}")
