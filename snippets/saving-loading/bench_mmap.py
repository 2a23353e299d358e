# method: interleaved -- the four loads alternate in rounds, each from trimmed memory and the page-cached file
import ctypes
import gc
import os
import statistics
import time

import torch

ROUNDS = 7
LIBC = ctypes.CDLL(None)
VARIANTS = {
    "torch.load": (False, False),
    "torch.load, then read every weight": (False, True),
    "torch.load(mmap=True)": (True, False),
    "torch.load(mmap=True), then read every weight": (True, True),
}


def resident_mib():
    """This process's resident memory, anonymous and file-backed, from /proc/self/status."""
    with open("/proc/self/status") as status:
        fields = dict(line.split(":", 1) for line in status)
    return {kind: int(fields[kind].split()[0]) / 1024 for kind in ("RssAnon", "RssFile")}


def load_once(mmap, read_every_weight):
    before = resident_mib()
    start = time.perf_counter()
    state = torch.load("checkpoint.pt", mmap=mmap)
    if read_every_weight:
        for tensor in state.values():
            tensor.sum()
    elapsed_ms = (time.perf_counter() - start) * 1e3
    after = resident_mib()
    del state
    gc.collect()
    LIBC.malloc_trim(0)  # return freed memory to the OS, so that every round starts from the same state
    return elapsed_ms, after["RssAnon"] - before["RssAnon"], after["RssFile"] - before["RssFile"]


torch.set_num_threads(1)
torch.manual_seed(0)
torch.save({f"layer{i}.weight": torch.randn(1024, 1024) for i in range(32)}, "checkpoint.pt")
gc.collect()
LIBC.malloc_trim(0)

results = {name: [] for name in VARIANTS}
for _ in range(ROUNDS):
    for name, (mmap, read_every_weight) in VARIANTS.items():
        results[name].append(load_once(mmap, read_every_weight))

print(f"checkpoint: {os.path.getsize('checkpoint.pt') / 2**20:.1f} MiB, in the page cache (just written)")
print("threads: 1")
print("| variant | time (ms) | IQR (ms) | runs | resident anonymous (MiB) | resident file-backed (MiB) |")
print("|---|---:|---:|---:|---:|---:|")
for name, runs in results.items():
    times, anonymous, file_backed = zip(*runs, strict=True)
    q1, _, q3 = statistics.quantiles(times, n=4)
    print(f"| {name} | {statistics.median(times):.2f} | {q3 - q1:.2f} | {ROUNDS} "
          f"| {statistics.median(anonymous):.1f} | {statistics.median(file_backed):.1f} |")
