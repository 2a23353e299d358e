import torch

torch.backends.cuda.matmul.fp32_precision = "tf32"  # new API
legacy_reads = {
    "torch.get_float32_matmul_precision()": torch.get_float32_matmul_precision,
    "torch.backends.cuda.matmul.allow_tf32": lambda: torch.backends.cuda.matmul.allow_tf32,
}
for code, read in legacy_reads.items():
    try:
        read()
    except RuntimeError as error:
        print(f"{code}: RuntimeError: {error}\n")

torch.backends.cuda.matmul.allow_tf32 = False  # legacy API, after the new one
print("after the legacy write: fp32_precision =", torch.backends.cuda.matmul.fp32_precision,
      "| get_float32_matmul_precision() =", torch.get_float32_matmul_precision())

torch.backends.cuda.matmul.fp32_precision = "none"  # no backend-specific choice again
torch.backends.fp32_precision = "tf32"  # the generic switch, which every backend left at "none" follows
print("after the generic switch: cuda matmul =", torch.backends.cuda.matmul.fp32_precision,
      "| cudnn conv =", torch.backends.cudnn.conv.fp32_precision,
      "| mkldnn matmul =", torch.backends.mkldnn.matmul.fp32_precision)
try:
    torch.get_float32_matmul_precision()
except RuntimeError as error:
    print("torch.get_float32_matmul_precision(): RuntimeError:", str(error).split(",")[0])
