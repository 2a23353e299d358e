# marks: cuda
# estimate: 60
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
BATCH, HEADS, LENGTH, HEAD_DIM = 2, 8, 2048, 64


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def leaves():
    return [torch.randn(BATCH, HEADS, LENGTH, HEAD_DIM, device="cuda", dtype=torch.bfloat16, requires_grad=True)
            for _ in range(3)]


q, k, v = leaves()
grad_out = torch.randn_like(q)
block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=LENGTH, KV_LEN=LENGTH, device="cuda")
# --8<-- [start:train]
compiled_flex = torch.compile(flex_attention)
out = compiled_flex(q, k, v, block_mask=block_mask)
out.backward(grad_out)
# --8<-- [end:train]
flex_grads = [t.grad for t in (q, k, v)]


def mean_errors(result, grads, reference, reference_grads):
    """Mean |error| against float64 of the output and of each q/k/v gradient, one value per tensor."""
    return [(mine.double() - ref).abs().mean().item()
            for mine, ref in zip([result, *grads], [reference, *reference_grads], strict=True)]


def sdpa_result(dtype):
    leaves64 = [t.detach().to(dtype).requires_grad_(True) for t in (q, k, v)]
    result = F.scaled_dot_product_attention(*leaves64, is_causal=True)
    result.backward(grad_out.to(dtype))
    return result.double(), [t.grad.double() for t in leaves64]


reference, reference_grads = sdpa_result(torch.float64)
sdpa_out, sdpa_grads = sdpa_result(torch.bfloat16)
flex_errors = mean_errors(out, flex_grads, reference, reference_grads)
sdpa_errors = mean_errors(sdpa_out, sdpa_grads, reference, reference_grads)
print("compiled flex_attention, causal, bfloat16: forward and backward run:", all(g is not None for g in flex_grads))
print("output, q, k and v gradients: each within 3x SDPA's mean error on it (both against float64):",
      all(flex <= 3 * sdpa for flex, sdpa in zip(flex_errors, sdpa_errors, strict=True)))
