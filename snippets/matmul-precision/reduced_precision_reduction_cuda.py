# marks: cuda
# estimate: 10
import torch

torch.manual_seed(0)
a = torch.randn(64, 2**18, device="cuda")
b = torch.randn(2**18, 64, device="cuda")
matmul = torch.backends.cuda.matmul
for dtype, flag in ((torch.float16, "allow_fp16_reduced_precision_reduction"),
                    (torch.bfloat16, "allow_bf16_reduced_precision_reduction")):
    a16, b16 = a.to(dtype), b.to(dtype)
    exact = a16.double() @ b16.double()  # the same 16-bit inputs in float64: only the GEMM's own error is left
    results = {}
    for allowed in (True, False):
        setattr(matmul, flag, allowed)
        results[allowed] = a16 @ b16
        error = (results[allowed].double() - exact).abs().max().item()
        print(f"{dtype}, {flag}={allowed}: max abs error {error:.2e}")
    print(f"{dtype}: results identical: {torch.equal(results[True], results[False])}")
