import warnings

import torch

matmul = torch.backends.cuda.matmul
print("defaults:", f"level={torch.get_float32_matmul_precision()}", f"cuda={matmul.fp32_precision}",
      f"mkldnn={torch.backends.mkldnn.matmul.fp32_precision}", f"cudnn conv={torch.backends.cudnn.conv.fp32_precision}",
      f"cudnn rnn={torch.backends.cudnn.rnn.fp32_precision}")
for level in ("highest", "high", "medium"):
    torch.set_float32_matmul_precision(level)
    print(f"set_float32_matmul_precision({level!r})".ljust(40), f"-> cuda={matmul.fp32_precision:4}",
          f"mkldnn={torch.backends.mkldnn.matmul.fp32_precision:4}", f"legacy allow_tf32={matmul.allow_tf32!s:5}",
          f"cudnn conv={torch.backends.cudnn.conv.fp32_precision}")

torch.set_float32_matmul_precision("highest")
torch.backends.cuda.matmul.fp32_precision = "tf32"  # the new, per-backend switch
torch.backends.cudnn.conv.fp32_precision = "ieee"
print("after the new switches:", f"cuda matmul={matmul.fp32_precision}",
      f"cudnn conv={torch.backends.cudnn.conv.fp32_precision}")
print("16-bit GEMMs may reduce in reduced precision:",
      f"fp16={matmul.allow_fp16_reduced_precision_reduction}", f"bf16={matmul.allow_bf16_reduced_precision_reduction}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.backends.mkldnn.allow_tf32 = True  # oneDNN's legacy TF32 flag
print("oneDNN allow_tf32 = True:", *(f"{w.category.__name__}: {w.message}" for w in caught))
