import os
import subprocess
import sys

READ = "import torch; print(torch._C._accelerator_getAllocatorSettings())"


def settings(**variables):
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF")}
    done = subprocess.run([sys.executable, "-c", READ], env=env | variables, capture_output=True, text=True)
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


print("new name only:", settings(PYTORCH_ALLOC_CONF="max_split_size_mb:128"))
print("old name only:", settings(PYTORCH_CUDA_ALLOC_CONF="max_split_size_mb:64"))
print("both set:     ", settings(PYTORCH_ALLOC_CONF="max_split_size_mb:128",
                                 PYTORCH_CUDA_ALLOC_CONF="max_split_size_mb:64"))
