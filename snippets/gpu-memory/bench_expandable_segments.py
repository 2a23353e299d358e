# marks: cuda
# estimate: 20
# method: processes -- PYTORCH_ALLOC_CONF is read once per process, and each needs an empty caching allocator
import json
import os
import subprocess
import sys

import torch

MiB = 2**20

if sys.argv[1:] == ["--workload"]:
    for step in range(1, 9):
        activations = torch.empty(step * 64 * MiB, dtype=torch.uint8, device="cuda")
        del activations
    stats = torch.cuda.memory_stats()
    print(json.dumps([stats["allocated_bytes.all.peak"] / MiB, stats["reserved_bytes.all.peak"] / MiB]))
    sys.exit()


def run(alloc_conf):
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF")}
    if alloc_conf:
        env["PYTORCH_ALLOC_CONF"] = alloc_conf
    done = subprocess.run([sys.executable, __file__, "--workload"], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


print("threads: 1")
print("| variant | runs | peak allocated (MiB) | peak reserved (MiB) |")
print("|---|---:|---:|---:|")
for name, conf in (("default", ""), ("expandable_segments:True", "expandable_segments:True")):
    peak, reserved = run(conf)
    print(f"| {name} | 1 | {peak:.1f} | {reserved:.1f} |")
