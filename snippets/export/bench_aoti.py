# marks: slow
# timeout: 600
# warns: FutureWarning: isinstance(treespec, LeafSpec) -- raised inside torch 2.13's AOTInductor, not by this code
# method: interleaved -- eager, torch.compile and the package alternate in rounds; the new process checks output only
import statistics
import subprocess
import sys

import torch
from torch import nn
from torch.utils import benchmark

ROUNDS = 10
RUN_WITHOUT_MODEL_CODE = """
import sys
import torch
package = torch._inductor.aoti_load_package(sys.argv[1])
torch.save(package(torch.load(sys.argv[2])), sys.argv[3])
"""

torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(64, 256), nn.LayerNorm(256), nn.GELU(), nn.Linear(256, 256), nn.LayerNorm(256), nn.GELU(),
    nn.Linear(256, 10),
).eval()
x = torch.randn(16, 64)

with torch.no_grad():
    program = torch.export.export(model, (x,))
    path = torch._inductor.aoti_compile_and_package(program, package_path="model.pt2")
    package = torch._inductor.aoti_load_package(path)
    expected = model(x)
    print("package output matches eager:", torch.allclose(package(x), expected, atol=1e-5))

    torch.save(x, "x.pt")
    subprocess.run([sys.executable, "-c", RUN_WITHOUT_MODEL_CODE, path, "x.pt", "y.pt"], check=True)
    print("a new process without the model's code:", torch.allclose(torch.load("y.pt"), expected, atol=1e-5))
    compiled = torch.compile(model)  # the same Inductor, run just in time, behind Dynamo's guards
    print("torch.compile output matches eager:", torch.allclose(compiled(x), expected, atol=1e-5))

    timers = {
        "eager": benchmark.Timer("model(x)", globals={"model": model, "x": x}, num_threads=1),
        "torch.compile": benchmark.Timer("compiled(x)", globals={"compiled": compiled, "x": x}, num_threads=1),
        "AOTInductor package": benchmark.Timer("package(x)", globals={"package": package, "x": x}, num_threads=1),
    }
    times = {name: [] for name in timers}
    for _ in range(ROUNDS):
        for name, timer in timers.items():
            times[name].append(timer.timeit(200).mean * 1e6)

print("threads: 1")
print("| variant | median (us) | IQR (us) | runs |")
print("|---|---:|---:|---:|")
for name, runs in times.items():
    q1, _, q3 = statistics.quantiles(runs, n=4)
    print(f"| {name} | {statistics.median(runs):.1f} | {q3 - q1:.2f} | {ROUNDS} |")
