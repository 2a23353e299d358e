import torch

for mode in ("default", "reduce-overhead", "max-autotune", "max-autotune-no-cudagraphs"):
    options = torch._inductor.list_mode_options(mode)
    print(f"{mode:<27} {options}")
