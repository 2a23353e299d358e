# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import contextlib
import gc
import os
import pickle
import re
import sys
import tempfile
import time
from datetime import timedelta

import torch
import torch.distributed as dist


@contextlib.contextmanager
def cpp_log_to_stdout():
    """torch's C++ logger writes to file descriptor 2 with a timestamp: collect its lines, print them without."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+") as log:
        os.dup2(log.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            log.seek(0)
            for line in log:
                print(re.sub(r"^\[rank\d+\]:\[[IWE][\d :.]+ \S+\] ", "(C++ log) ", line.rstrip()))


dist.init_process_group("gloo", timeout=timedelta(seconds=30))
rank = dist.get_rank()
group = dist.new_group(timeout=timedelta(seconds=2), group_desc="two_second_timeout")

x = torch.ones(4)
for _ in range(2500):
    dist.all_reduce(x)
dist.all_reduce(x, group=group)
if rank == 1:
    time.sleep(3)
else:
    start = time.monotonic()
    try:
        dist.all_reduce(x, group=group)
    except RuntimeError as error:
        print(f"after {time.monotonic() - start:.0f} s: RuntimeError: {error}")

trace = pickle.loads(torch._C._distributed_c10d._dump_fr_trace())
buffer_size = os.environ.get("TORCH_FR_BUFFER_SIZE", "not set")
print(f"TORCH_FR_BUFFER_SIZE {buffer_size}: the flight recorder kept {len(trace['entries'])} entries")
for entry in trace["entries"]:
    if entry["process_group"][1] == "two_second_timeout":
        number, name, sizes = entry["collective_seq_id"], entry["profiling_name"], entry["input_sizes"]
        print(f"flight recorder: collective #{number} {name} {sizes}")
dist.barrier()

monitor = dist.new_group(backend="gloo", timeout=timedelta(seconds=2))
if rank == 1:
    time.sleep(3)
else:
    with cpp_log_to_stdout():
        try:
            dist.monitored_barrier(group=monitor, timeout=timedelta(seconds=2))
        except RuntimeError as error:
            print(f"RuntimeError: {error}")

del x, trace
gc.collect()
dist.barrier()
dist.destroy_process_group()
