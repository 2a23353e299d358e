# marks: cuda
# estimate: 10
import re

import torch

GiB = 2**30
torch.cuda.set_per_process_memory_fraction(2 * GiB / torch.cuda.get_device_properties(0).total_memory)

kept = torch.empty(GiB + GiB // 4, dtype=torch.uint8, device="cuda")
try:
    more = torch.empty(GiB, dtype=torch.uint8, device="cuda")
except torch.OutOfMemoryError as error:
    message = re.sub(r"Process \d+", "Process <pid>", str(error))
    message = re.sub(r"(total capacity of|of which|has) [\d.]+ [KMGT]?i?B", r"\1 <size>", message)
    print(type(error).__name__)
    for sentence in re.split(r"(?<=\.)\s+(?=[A-Z0-9])|(?<=;)\s+", message):
        print(" ", sentence)

del kept
more = torch.empty(GiB, dtype=torch.uint8, device="cuda")
print("after del kept, the 1 GiB tensor fits:", more.numel() == GiB)
