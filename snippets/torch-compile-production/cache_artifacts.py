# marks: slow
# timeout: 400
import os
import subprocess
import sys
import tempfile

import torch
from torch import nn
from torch._dynamo.utils import counters
from torch._inductor.cpp_builder import CppBuilder
from torch._inductor.cpu_vec_isa import pick_vec_isa

cpp_builds = []


def count_cpp_builds():
    """Count each run of the C++ compiler from here on (after Inductor's once-per-process ISA probe)."""
    pick_vec_isa()
    build = CppBuilder.build

    def counted(builder):
        cpp_builds.append(builder)
        return build(builder)
    CppBuilder.build = counted


def train_step(model, x):
    loss = nn.functional.gelu(model(x)).square().mean()
    loss.backward()
    return loss


def compile_and_count(change_an_inductor_option=False):
    """One compiled training step in this process; which caches it hit (in this process's counters)."""
    if change_an_inductor_option:
        torch._inductor.config.cpp.simdlen = 1  # Inductor's options are part of the FX-graph cache key
    count_cpp_builds()
    torch.manual_seed(0)
    model = nn.Linear(32, 32)
    torch.compile(train_step)(model, torch.randn(8, 32))
    fx, aot = counters["inductor"], counters["aot_autograd"]
    print(f"  FX graph cache: {fx['fxgraph_cache_hit']} hit, {fx['fxgraph_cache_miss']} miss; "
          f"AOTAutograd cache: {aot['autograd_cache_hit']} hit, {aot['autograd_cache_miss']} miss")
    print(f"cpp-builds {len(cpp_builds)}")  # for the parent; how many depends on the CPU


def child(role, artifacts_path):
    torch.set_num_threads(1)
    if role == "save":
        compile_and_count()
        artifacts, info = torch.compiler.save_cache_artifacts()
        print(f"  saved {len(info.inductor_artifacts)} Inductor (FX graph) + {len(info.aot_autograd_artifacts)} "
              "AOTAutograd artifacts")
        with open(artifacts_path, "wb") as file:
            file.write(artifacts)
        return
    with open(artifacts_path, "rb") as file:
        info = torch.compiler.load_cache_artifacts(file.read())
    print(f"  loaded {len(info.inductor_artifacts)} Inductor + {len(info.aot_autograd_artifacts)} AOTAutograd "
          "artifacts into an empty cache directory")
    compile_and_count(change_an_inductor_option=role == "load, other config")


def report_cpp_builds(role, builds, builds_when_saving):
    if role == "load":
        same = "as often as" if builds == builds_when_saving else "not as often as"
        print(f"  C++ compiler: ran {same} in the save process")
    else:
        print(f"  C++ compiler: {'ran' if builds else 'did not run'}")


if sys.argv[1:2] == ["--child"]:
    child(sys.argv[2], sys.argv[3])
    sys.exit()

builds_when_saving = None
with tempfile.TemporaryDirectory() as shared:
    artifacts_path = os.path.join(shared, "artifacts.bin")
    for role in ("save", "load", "load, other config"):
        with tempfile.TemporaryDirectory() as cache:  # a fresh, empty on-disk cache for every process
            print(f"new process ({role}), empty TORCHINDUCTOR_CACHE_DIR:")
            # one compile thread: every C++ build runs in the child itself, where count_cpp_builds sees it
            env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": cache, "TORCHINDUCTOR_COMPILE_THREADS": "1"}
            done = subprocess.run([sys.executable, __file__, "--child", role, artifacts_path], env=env,
                                  capture_output=True, text=True, check=True)
            lines = done.stdout.splitlines()
            builds = next(int(line.split()[1]) for line in lines if line.startswith("cpp-builds "))
            builds_when_saving = builds_when_saving or builds
            print("\n".join(line for line in lines if not line.startswith("cpp-builds ")))
            report_cpp_builds(role, builds, builds_when_saving)
