# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import gc

import torch
import torch.distributed as dist

dist.set_debug_level(dist.DebugLevel.DETAIL)
dist.init_process_group("gloo")
rank = dist.get_rank()
print("debug level:", dist.get_debug_level())


def attempt(label, collective, tensor, **options):
    try:
        collective(tensor, **options)
        print(f"{label}: ok")
    except RuntimeError as error:
        print(f"{label}: RuntimeError: {error}")


lengths = torch.ones(4 if rank == 0 else 8)
attempt("all_reduce of different shapes", dist.all_reduce, lengths)
same = torch.ones(4)
if rank == 0:
    attempt("all_reduce on rank 0, broadcast on rank 1", dist.all_reduce, same)
else:
    attempt("all_reduce on rank 0, broadcast on rank 1", dist.broadcast, same, src=0)
attempt("the same all_reduce on both ranks", dist.all_reduce, same)
print("result:", same.tolist())

del lengths, same
gc.collect()
dist.barrier()
dist.destroy_process_group()
