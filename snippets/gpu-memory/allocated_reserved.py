# marks: cuda
# estimate: 10
import torch

MiB = 2**20


def show(label):
    allocated, reserved = torch.cuda.memory_allocated() / MiB, torch.cuda.memory_reserved() / MiB
    print(f"{label:<44} allocated {allocated:6.1f} MiB, reserved {reserved:6.1f} MiB")


show("start")
x = torch.empty(256 * MiB, dtype=torch.uint8, device="cuda")
show("after a 256 MiB tensor")
del x
show("after del")
y = torch.empty(200 * MiB, dtype=torch.uint8, device="cuda")
show("after a 200 MiB tensor (reuses the cache)")
del y
torch.cuda.empty_cache()
show("after del and empty_cache()")

small = [torch.empty(512 * 1024, dtype=torch.uint8, device="cuda") for _ in range(16)]
show("16 tensors of 512 KiB")
small = small[::4]
torch.cuda.empty_cache()
show("4 of them kept, empty_cache()")
del small
torch.cuda.empty_cache()
show("none kept, empty_cache()")

stats = torch.cuda.memory_stats()
for key in ("allocated_bytes.all.peak", "reserved_bytes.all.peak", "segment.all.allocated",
            "num_alloc_retries", "num_ooms"):
    print(f"{key:<26} {stats[key]}")
