import contextlib
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import profile, record_function

torch.manual_seed(0)
q, k, v = torch.randn(3, 2, 4, 128, 64).unbind(0)
choices = {  # label: (the backends sdpa_kernel allows, None for no sdpa_kernel; dropout_p)
    "no sdpa_kernel (default)": (None, 0.0),
    "no sdpa_kernel, dropout_p=0.1": (None, 0.1),
    "MATH only": ([SDPBackend.MATH], 0.0),
    "EFFICIENT_ATTENTION or MATH": ([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH], 0.0),
}

with profile() as prof:
    for label, (backends, dropout_p) in choices.items():
        with record_function(label), sdpa_kernel(backends) if backends else contextlib.nullcontext():
            F.scaled_dot_product_attention(q, k, v, dropout_p=dropout_p)
for event in prof.events():
    if event.name in choices:
        sdpa = event.cpu_children[0]
        print(f"{event.name:30} -> {sdpa.cpu_children[0].name}")

for forced in (SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION):
    try:
        with sdpa_kernel(forced):
            F.scaled_dot_product_attention(q, k, v)
    except RuntimeError as error:
        print(f"{forced.name} only: RuntimeError: {error}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            F.scaled_dot_product_attention(q, k, v, dropout_p=0.1)
    except RuntimeError as error:
        print(f"FLASH_ATTENTION only, dropout_p=0.1: RuntimeError: {error}")
for warning in caught:
    print("  UserWarning:", str(warning.message).split(" (Triggered internally")[0])

q16, k16, v16 = (t.bfloat16() for t in (q, k, v))
with sdpa_kernel(SDPBackend.MATH):
    upcast = F.scaled_dot_product_attention(q16, k16, v16)
    torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp(True)
    reduced = F.scaled_dot_product_attention(q16, k16, v16)
    torch.backends.cuda.allow_fp16_bf16_reduction_math_sdp(False)
print("bfloat16 on the CPU, math: torch.backends.cuda switch changes the result:", not torch.equal(upcast, reduced))
