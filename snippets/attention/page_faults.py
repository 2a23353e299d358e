# marks: linux_glibc
# launch: python
import ctypes
import math
import os
import platform
import resource
import sys

import torch
import torch.nn.functional as F

if sys.platform != "linux" or platform.libc_ver()[0] != "glibc":
    sys.exit("page_faults.py needs Linux with glibc: it sets glibc's mallopt and Linux's prctl")
# c10 reads this variable once, at its first allocation; set, it changes the alignment it asks
# glibc for (posix_memalign), and with it how the heap reuses freed blocks. Start without it.
if os.environ.pop("THP_MEM_ALLOC_ENABLE", None) is not None:
    os.execv(sys.executable, [sys.executable, *sys.argv])

torch.manual_seed(0)
MIB = 2**20
libc = ctypes.CDLL(None, use_errno=True)

# A fault then maps one base page: with transparent huge pages, one fault can map 2 MiB.
PR_SET_THP_DISABLE, PR_GET_THP_DISABLE = 41, 42
if libc.prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0:
    sys.exit(f"prctl(PR_SET_THP_DISABLE) failed: errno {ctypes.get_errno()}")

# glibc's malloc mmaps a block at or above its threshold and unmaps it when freed. The threshold
# starts at 128 KiB and follows the size of freed blocks up to 32 MiB, and the heap is trimmed
# above twice the threshold. Pin both where that rule ends, so that the result does not depend
# on what this process allocated before.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
libc.mallopt(M_MMAP_THRESHOLD, 32 * MIB)
libc.mallopt(M_TRIM_THRESHOLD, 64 * MIB)


def hand_written(q, k, v):
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    return scores.softmax(dim=-1) @ v


def fresh_mib_per_forward(attention, q, k, v, calls=5):
    with torch.inference_mode():
        for _ in range(3):
            attention(q, k, v)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(calls):
            attention(q, k, v)
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    return faults * resource.getpagesize() / calls / MIB


print("transparent huge pages off for this process:", libc.prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1)
for length in (1024, 2048):
    q, k, v = (torch.randn(1, 2, length, 64) for _ in range(3))
    score_mib = q.size(0) * q.size(1) * length * length * 4 / MIB
    print(f"L={length}: one score matrix is {score_mib:.0f} MiB")
    for name, attention in (("hand-written", hand_written), ("SDPA", F.scaled_dot_product_attention)):
        fresh = fresh_mib_per_forward(attention, q, k, v)
        print(f"  {name}: faulted in at least one score matrix of fresh pages per forward: {fresh >= score_mib}")
