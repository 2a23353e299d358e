# marks: cuda
# estimate: 10
import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
q, k, v = torch.randn(3, 2, 8, 1024, 64, device="cuda").unbind(0)


def print_warnings(caught):
    for warning in caught:
        print("  UserWarning:", str(warning.message).split(" (Triggered internally")[0])


for dtype in (torch.bfloat16, torch.float32):
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        F.scaled_dot_product_attention(q.to(dtype), k.to(dtype), v.to(dtype))
    chosen = [e.name for e in prof.events() if e.name.startswith("aten::_scaled_dot_product")]
    print(f"{dtype}: {chosen[0]}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
            F.scaled_dot_product_attention(q, k, v)
    except RuntimeError as error:
        print("FLASH_ATTENTION only, float32: RuntimeError:", error)
print_warnings(caught)

qb, kb, vb = (t.bfloat16() for t in (q, k, v))
tril = torch.ones(1024, 1024, dtype=torch.bool, device="cuda").tril()
for label, causal in (("is_causal=True", {"is_causal": True}), ("tril attn_mask", {"attn_mask": tril})):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                F.scaled_dot_product_attention(qb, kb, vb, **causal)
            print(f"FLASH_ATTENTION only, bfloat16, {label}: runs")
        except RuntimeError as error:
            print(f"FLASH_ATTENTION only, bfloat16, {label}: RuntimeError: {error}")
    print_warnings(caught)
