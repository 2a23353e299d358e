import math

import torch


def mantissa_bits(dtype):
    return -int(math.log2(torch.finfo(dtype).eps))


def round_to_tf32(x):
    """float32 rounded to 10 mantissa bits (to nearest, ties to even): TF32, emulated on the CPU."""
    bits = x.view(torch.int32)
    rounding = 0xFFF + ((bits >> 13) & 1)
    return ((bits + rounding) & ~0x1FFF).view(torch.float32)


def truncate_to_tf32(x):
    """float32 cut to 10 mantissa bits (the 13 lower bits dropped): the other conversion a GPU may use."""
    return (x.view(torch.int32) & ~0x1FFF).view(torch.float32)


formats = {
    "float32": (mantissa_bits(torch.float32), torch.finfo(torch.float32).max),
    "TF32": (mantissa_bits(torch.float16), torch.finfo(torch.float32).max),  # float16's precision, float32's range
    "bfloat16": (mantissa_bits(torch.bfloat16), torch.finfo(torch.bfloat16).max),
    "float16": (mantissa_bits(torch.float16), torch.finfo(torch.float16).max),
}
for name, (bits, largest) in formats.items():
    print(f"{name:9} mantissa bits: {bits:2}   relative step: {2.0**-bits:.1e}   largest: {largest:.2e}")

x = torch.tensor([math.pi, 1 / 3, 70000.0])
print("float32:", x.tolist())
print("TF32:   ", round_to_tf32(x).tolist())
print("TF32 truncated:", truncate_to_tf32(x).tolist())
print("float16:", x.half().float().tolist())
