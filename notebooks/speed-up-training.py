# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown] lang="en"
# # Speed up a training loop, step by step
#
# The other pages of this guide explain one technique each. This notebook applies them, one
# at a time, to a single training loop — a small multilayer perceptron on synthetic data —
# and measures every stage in the same run, on the machine that executed it. Nothing here is
# an estimate: the table and the plot at the end are computed from the measurements above
# them (a cell shows "—" where nothing was measured), and what you read is one recorded
# execution of this notebook, on the machine named under the title; the tests execute it again
# and compare what it prints.
#
# [Download this notebook (.ipynb)](speed-up-training.ipynb). It runs on the CPU by default
# and takes the CUDA path by itself on a machine with a GPU.

# %% [markdown] lang="zh"
# # 一步步加速一个训练循环
#
# 本指南的其他页面各讲一种技术；这个 notebook 则把它们逐一用到同一个训练循环上——一个在合成数据上训练的小型多层感知机——并在同一次运行中、在执行它的机器上测量每个阶段。这里没有任何估算：末尾的表格和图都由前面的测量结果计算得出（没有测量的地方，单元格显示“—”）；你读到的是这个 notebook 的一次录制下来的执行，所用机器写在标题下方，测试会再次执行它并比对它打印的内容。
#
# [下载此 notebook（.ipynb）](speed-up-training.ipynb)。它默认在 CPU 上运行；在有 GPU 的机器上会自动走 CUDA 路径。

# %%
import statistics
import time

import matplotlib.pyplot as plt
import matplotlib_inline.backend_inline
import torch
from IPython.display import Markdown, display
from torch import nn
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader, Dataset

matplotlib_inline.backend_inline.set_matplotlib_formats("svg")  # text, not pixels
plt.rcParams["svg.hashsalt"] = "speed-up-training"  # the same ids in every run
plt.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, and small
torch.manual_seed(0)
device = torch.accelerator.current_accelerator() if torch.accelerator.is_available() else torch.device("cpu")

# %% [markdown] lang="en"
# ## The model, the data and one training step
#
# A multilayer perceptron with residual-free blocks of two linear layers each, trained with
# AdamW (its default implementation) on random vectors. `make_step` builds the training step we
# will change stage by stage; `fresh_model` gives every stage its own copy of the same initial
# weights, so that no two variants share parameters or optimizer state.

# %% [markdown] lang="zh"
# ## 模型、数据与一个训练步
#
# 模型是一个多层感知机，每个块由两个线性层组成、不带残差连接；用 AdamW（默认实现）在随机向量上训练。`make_step` 构造训练步，后面会一个阶段一个阶段地修改它；`fresh_model` 为每个阶段复制一份相同的初始权重，这样任何两个变体都不会共用参数或优化器状态。

# %%
FEATURES, HIDDEN, CLASSES, BATCH = 256, 512, 10, 128


class MLP(nn.Module):
    def __init__(self, depth: int = 3, checkpointed: bool = False):
        super().__init__()
        self.inp = nn.Linear(FEATURES, HIDDEN)
        self.blocks = nn.ModuleList(
            nn.Sequential(nn.Linear(HIDDEN, HIDDEN), nn.GELU(), nn.Linear(HIDDEN, HIDDEN), nn.GELU())
            for _ in range(depth)
        )
        self.out = nn.Linear(HIDDEN, CLASSES)
        self.checkpointed = checkpointed

    def forward(self, x):
        x = torch.relu(self.inp(x))
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=False) if self.checkpointed else block(x)
        return self.out(x)


def make_step(model, autocast_dtype=None, fused=None):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=fused)  # None: AdamW's default
    loss_fn = nn.CrossEntropyLoss()

    def step(x, y):
        with torch.autocast(device.type, dtype=autocast_dtype, enabled=autocast_dtype is not None):
            loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        return loss

    return step


x = torch.randn(BATCH, FEATURES, device=device)
y = torch.randint(0, CLASSES, (BATCH,), device=device)
initial_state = MLP().to(device).state_dict()


def fresh_model(checkpointed: bool = False) -> MLP:
    copy = MLP(checkpointed=checkpointed).to(device)
    copy.load_state_dict(initial_state)
    return copy


model = fresh_model()
print(f"{sum(p.numel() for p in model.parameters()) / 1e6:.1f} M parameters")

# %% [markdown] lang="en"
# ## Stage 1 — time it correctly
#
# The tempting measurement wraps one step in `time.time()`. It mixes in one-off costs (the
# first call allocates memory and picks kernels), and on a GPU it measures only how long
# Python took to *queue* the work, because CUDA kernels run asynchronously. The sound way:
# warm up, synchronize the device, repeat, and take the median — see
# [Devices and async execution](../../devices/). A stage is only compared with a reference
# measured beside it: from stage 4 on, each stage's step and a baseline step on its own copy of
# the model take turns, call by call, in the same rounds (`compare_ms`), so that a slow moment
# of the machine falls on both, and the ratio printed is taken within those rounds.

# %% [markdown] lang="zh"
# ## 阶段 1：正确地计时
#
# 最顺手的测法是用 `time.time()` 包住一个训练步。但这样会混入一次性开销（首次调用要分配内存、选择内核）；在 GPU 上它测到的只是 Python 把任务*排进队列*的时间，因为 CUDA 内核是异步执行的。可靠的做法是：先预热，再同步设备，重复多次，取中位数——参见[设备与异步执行](../../devices/)。每个阶段只和在它旁边测得的参照比较：从阶段 4 起，每个阶段的训练步与一份独立模型副本上的基线训练步在同样的几轮里逐次交替运行（`compare_ms`），机器偶尔变慢时两者都会受到影响，打印出的比值也取自这几轮测量。

# %%
def sync():
    if device.type == "cuda":
        torch.cuda.synchronize(device)


REPEATS = 9


def timing_ms(fn, warmup: int = 2, repeats: int = REPEATS) -> tuple[float, float]:
    """Median and interquartile range, in ms, of `repeats` timed calls after `warmup` untimed ones."""
    for _ in range(warmup):
        fn()
    sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        sync()
        times.append(1000 * (time.perf_counter() - start))
    return median_iqr(times)


def median_iqr(times: list[float]) -> tuple[float, float]:
    q1, _, q3 = statistics.quantiles(times, n=4)
    return statistics.median(times), q3 - q1


def compare_ms(fn, reference, warmup: int = 2, repeats: int = REPEATS):
    """Median and IQR, in ms, of `fn` and of `reference`, timed call by call in alternating order."""
    for _ in range(warmup):
        fn()
        reference()
    times = {fn: [], reference: []}
    for round_ in range(repeats):
        for f in (fn, reference) if round_ % 2 == 0 else (reference, fn):
            sync()
            start = time.perf_counter()
            f()
            sync()
            times[f].append(1000 * (time.perf_counter() - start))
    return (*median_iqr(times[fn]), *median_iqr(times[reference]))


def saved_for_backward_mib(forward, module) -> tuple[float, float]:
    """MiB of tensors the forward pass keeps for backward, each storage once, parameters left out
    (they exist whether or not a graph is recorded): (activations, copies of weights). A saved
    tensor shaped like a weight, or its transpose, is a copy of one, such as autocast's bfloat16
    cast; no activation here has a weight's shape, because the batch is 128 and no layer is."""
    parameters = {p.untyped_storage().data_ptr() for p in module.parameters()}
    weight_shapes = {tuple(p.shape) for p in module.parameters()} | {tuple(p.shape)[::-1] for p in module.parameters()}
    activations, weight_copies = {}, {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in parameters:
            kind = weight_copies if tuple(tensor.shape) in weight_shapes else activations
            kind[storage.data_ptr()] = storage.nbytes()
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        output = forward()
    if output.requires_grad:
        output.sum().backward()
        module.zero_grad()  # leave no gradient behind for the next training step
    return sum(activations.values()) / 2**20, sum(weight_copies.values()) / 2**20


def saved_activation_mib(forward, module) -> float:
    return saved_for_backward_mib(forward, module)[0]


step = make_step(model)
start = time.time()
step(x, y)
naive_first_ms = 1000 * (time.time() - start)
baseline_ms, baseline_iqr = timing_ms(lambda: step(x, y))
baseline_mib = saved_activation_mib(lambda: model(x), model)
print(f"first step, timed naively: {naive_first_ms:.1f} ms")
print(f"median of {REPEATS} warm steps:   {baseline_ms:.1f} ms")
print(f"activations saved for backward: {baseline_mib:.2f} MiB")
# stage, what is timed, median, IQR, the reference's median and IQR beside it, activations, weight copies
results = [("fp32 eager (baseline)", "train step", baseline_ms, baseline_iqr, None, None, baseline_mib, 0.0)]
baseline_model = fresh_model()
baseline_step = make_step(baseline_model)


def baseline():
    baseline_step(x, y)

# %% [markdown] lang="en"
# ## Stage 2 — evaluate under `inference_mode`
#
# Evaluation needs no graph. `model.eval()` only switches layers such as dropout and batch
# norm to inference behaviour; it does not stop autograd from recording. `torch.inference_mode()`
# does, and skips the bookkeeping that `no_grad` still does — see
# [no_grad and inference_mode](../../no-grad-inference/).

# %% [markdown] lang="zh"
# ## 阶段 2：在 `inference_mode` 下评估
#
# 评估不需要计算图。`model.eval()` 只是把 dropout、BatchNorm 等层切换到推理行为，并不会阻止自动微分记录运算；`torch.inference_mode()` 才会，而且连 `no_grad` 仍要做的一些簿记工作也省掉了——参见 [no_grad 与 inference_mode](../../no-grad-inference/)。

# %%
model.eval()


def evaluate():
    with torch.inference_mode():
        return model(x)


eval_inference_ms, eval_inference_iqr, eval_recording_ms, eval_recording_iqr = compare_ms(evaluate, lambda: model(x))
eval_recording_mib = saved_activation_mib(lambda: model(x), model)
eval_inference_mib = saved_activation_mib(evaluate, model)
model.train()
print(f"eval forward, graph recorded: {eval_recording_ms:.1f} ms, {eval_recording_mib:.2f} MiB kept for backward")
print(f"eval forward, inference_mode: {eval_inference_ms:.1f} ms, {eval_inference_mib:.2f} MiB kept")
results += [
    ("eval() only", "eval forward", eval_recording_ms, eval_recording_iqr, None, None, eval_recording_mib, 0.0),
    ("eval() + inference_mode", "eval forward", eval_inference_ms, eval_inference_iqr,
     eval_recording_ms, eval_recording_iqr, eval_inference_mib, 0.0),
]

# %% [markdown] lang="en"
# ## Stage 3 — feed it with DataLoader workers
#
# Real datasets spend time per sample on reading and decoding. Here each sample waits
# 0.2 ms to stand in for that. With `num_workers=0` the training process does this itself;
# with workers, other processes prepare the next batches while it trains. Both loaders keep
# their workers (`persistent_workers`), and their epochs alternate. `pin_memory=True` helps
# when batches are copied to a GPU, so it is on only there — see
# [Data loading](../../data-loading/).

# %% [markdown] lang="zh"
# ## 阶段 3：用 DataLoader 的 worker 进程加载数据
#
# 真实数据集读取、解码每个样本都要花时间。这里让每个样本等待 0.2 ms 来模拟。`num_workers=0` 时由训练进程自己完成这些工作；启用 worker 进程后，这些进程会在训练的同时准备后续批次。两个加载器都让 worker 常驻（`persistent_workers`），各自的 epoch 交替运行。`pin_memory=True` 在把批次复制到 GPU 时才有用，因此只在 GPU 上开启——参见[数据加载](../../data-loading/)。

# %%
class SlowVectors(Dataset):
    def __init__(self, n: int = 1024, latency_s: float = 0.0002):
        generator = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, FEATURES, generator=generator)
        self.y = torch.randint(0, CLASSES, (n,), generator=generator)
        self.latency_s = latency_s

    def __len__(self):
        return len(self.x)

    def __getitem__(self, index):
        time.sleep(self.latency_s)
        return self.x[index], self.y[index]


LOADER_EPOCHS = 5


def epoch_of(num_workers: int):
    loader = DataLoader(
        SlowVectors(), batch_size=BATCH, num_workers=num_workers,
        pin_memory=device.type == "cuda", persistent_workers=num_workers > 0,
    )

    def epoch():
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)

    return epoch, len(loader)


(with_workers, batches), (without_workers, _) = epoch_of(2), epoch_of(0)
# the warm-up epoch starts the workers; then the two loaders alternate, epoch by epoch
two_ms, two_iqr, zero_ms, zero_iqr = (
    t / batches for t in compare_ms(with_workers, without_workers, warmup=1, repeats=LOADER_EPOCHS)
)
print(f"num_workers=0: {zero_ms:.1f} ms per batch of {BATCH}")
print(f"num_workers=2: {two_ms:.1f} ms per batch of {BATCH}")
results += [
    ("DataLoader, 0 workers", "load one batch", zero_ms, zero_iqr, None, None, None, None),
    ("DataLoader, 2 workers", "load one batch", two_ms, two_iqr, zero_ms, zero_iqr, None, None),
]

# %% [markdown] lang="en"
# ## Stage 4 — bfloat16 autocast
#
# Under `torch.autocast`, matrix multiplications run in bfloat16 while precision-sensitive
# operations stay in float32. bfloat16 has float32's exponent range, so no gradient scaler
# is needed. Whether it is *faster* depends on the hardware: GPUs with tensor cores and CPUs
# with native bfloat16 instructions gain; other CPUs may get slower — see
# [Mixed precision](../../mixed-precision/). Memory has two sides: the activations are kept in
# bfloat16, but autocast also keeps, for the backward pass, the bfloat16 copy of each weight it
# cast in the forward pass. The cell counts the two apart and prints their total beside the
# baseline's: with a small batch, the weight copies can outweigh what the smaller activations
# save, so that autocast keeps more for backward than float32, not less.

# %% [markdown] lang="zh"
# ## 阶段 4：bfloat16 自动混合精度
#
# 在 `torch.autocast` 下，矩阵乘法以 bfloat16 运行，对精度敏感的运算仍保持 float32。bfloat16 的指数范围与 float32 相同，因此不需要梯度缩放。它是否*更快*取决于硬件：有 Tensor Core 的 GPU 和支持原生 bfloat16 指令的 CPU 会受益，其他 CPU 反而可能变慢——参见[混合精度](../../mixed-precision/)。内存有两面：激活值以 bfloat16 保存，但 autocast 还会为反向传播留下它在前向传播中转换出来的每个权重的 bfloat16 副本。下面的单元格把两者分开统计，并把两者之和与基线并列打印：批次较小时，权重副本可能比激活值省下的还多，于是 autocast 为反向传播保留的内存反而比 float32 多，而不是少。

# %%
def report(stage: str, measured: tuple[float, float, float, float], mib: float | None, copies_mib: float | None):
    ms, iqr, base_ms, base_iqr = measured
    print(f"{stage}: {ms:.1f} ms per step, baseline beside it {base_ms:.1f} ms ({ms / base_ms:.2f}x its time)")
    results.append((stage, "train step", ms, iqr, base_ms, base_iqr, mib, copies_mib))


bf16_model = fresh_model()
bf16_step = make_step(bf16_model, autocast_dtype=torch.bfloat16)


def bf16_forward():
    with torch.autocast(device.type, dtype=torch.bfloat16):
        return bf16_model(x)


bf16_mib, bf16_weight_copies_mib = saved_for_backward_mib(bf16_forward, bf16_model)
report("bf16 autocast", compare_ms(lambda: bf16_step(x, y), baseline), bf16_mib, bf16_weight_copies_mib)
print(f"kept for backward: {bf16_mib:.2f} MiB of activations and {bf16_weight_copies_mib:.2f} MiB of bfloat16 "
      f"weight copies, {bf16_mib + bf16_weight_copies_mib:.2f} MiB in all (baseline {baseline_mib:.2f} MiB)")

# %% [markdown] lang="en"
# ## Stage 5 — a fused optimizer
#
# `AdamW` updates every parameter tensor with a handful of elementwise operations. Which
# implementation runs by default depends on where the parameters are: on CUDA (and XPU, MTIA)
# it is `foreach`, each operation once over all tensors; on the CPU it is a for-loop over the
# parameters, each operation once per tensor (the cell prints which one this run's baseline
# used; `fused=False`, given explicitly, would force the for-loop everywhere). With
# `fused=True` one kernel does the whole update, on the CPU as on a GPU — see
# [Optimizers](../../optimizers/). The arithmetic is the same, so the step changes only in how
# long the update takes.

# %% [markdown] lang="zh"
# ## 阶段 5：融合优化器
#
# `AdamW` 对每个参数张量执行若干个逐元素运算。默认用哪种实现，取决于参数在哪里：在 CUDA（以及 XPU、MTIA）上是 `foreach`，每个运算对所有张量执行一次；在 CPU 上是对参数逐个循环，每个运算对每个张量各执行一次（单元格会打印本次运行的基线用的是哪一种；显式传入 `fused=False` 则在任何设备上都会强制使用逐个循环）。`fused=True` 时，整个更新由一个内核完成，CPU 和 GPU 上都是如此——参见[优化器](../../optimizers/)。算术完全相同，所以训练步中变的只是更新所花的时间。

# %%
from torch.optim.optimizer import _default_to_fused_or_foreach  # noqa: E402  (what AdamW asks when neither is given)

_, default_foreach = _default_to_fused_or_foreach(list(baseline_model.parameters()), differentiable=False)
print("AdamW's default here:", "foreach" if default_foreach else "for-loop over the parameters")
fused_model = fresh_model()
fused_step = make_step(fused_model, fused=True)
report("fused AdamW", compare_ms(lambda: fused_step(x, y), baseline),
       *saved_for_backward_mib(lambda: fused_model(x), fused_model))

# %% [markdown] lang="en"
# ## Stage 6 — TF32 matrix multiplications (CUDA only)
#
# On an NVIDIA GPU since Ampere, float32 matrix multiplications can run on Tensor Cores in
# TF32, which keeps float32's range and 10 bits of its mantissa. PyTorch leaves it off for
# matrix multiplications; one setting turns it on — see
# [float32 matmul precision](../../matmul-precision/). The setting does nothing on the CPU, so this
# stage runs only where the notebook found a GPU.

# %% [markdown] lang="zh"
# ## 阶段 6：TF32 矩阵乘法（仅 CUDA）
#
# 在 Ampere 及更新的 NVIDIA GPU 上，float32 矩阵乘法可以用 TF32 在 Tensor Core 上运行：保留 float32 的数值范围和 10 位尾数。PyTorch 默认不对矩阵乘法开启它，一个设置就能打开——参见[矩阵乘法精度](../../matmul-precision/)。这个设置在 CPU 上不起作用，所以这一阶段只在 notebook 找到 GPU 时运行。

# %%
if device.type == "cuda":
    default_precision = torch.backends.cuda.matmul.fp32_precision
    tf32_model = fresh_model()
    tf32_step = make_step(tf32_model)

    def tf32():
        torch.backends.cuda.matmul.fp32_precision = "tf32"  # for this step only: the baseline takes turns
        try:
            tf32_step(x, y)
        finally:
            torch.backends.cuda.matmul.fp32_precision = default_precision

    report("TF32 matmuls", compare_ms(tf32, baseline), *saved_for_backward_mib(lambda: tf32_model(x), tf32_model))
else:
    print(f"TF32: not measured, the device is {device.type}")

# %% [markdown] lang="en"
# ## Stage 7 — `torch.compile`
#
# `torch.compile` captures the model into graphs and generates fused kernels for them. The
# first call pays for compilation; later calls run the compiled code. Both costs are measured
# — see [torch.compile](../../torch-compile/). If this machine has compiled the same model
# before, Inductor's on-disk cache makes that first call much cheaper; so the cell compiles into
# a new, empty cache directory (`fresh_cache`), and prints the cache hits of that first call to
# show it was a cold compile. Whether the compiled step is faster depends on the model: fusion
# saves memory traffic between small operations, and this model's time goes mostly into matrix
# multiplications that eager mode already runs in optimized libraries. So expect little gain
# here, or a loss: a ratio above 1 means the compiled step was slower than the eager baseline
# measured beside it.

# %% [markdown] lang="zh"
# ## 阶段 7：`torch.compile`
#
# `torch.compile` 把模型捕获成图，并为其生成融合内核。第一次调用要付出编译开销，之后的调用运行编译好的代码。这两部分开销都做了测量——参见 [torch.compile](../../torch-compile/)。如果这台机器以前编译过同一个模型，Inductor 的磁盘缓存会让第一次调用便宜得多；所以这个单元格在一个新建的空缓存目录中编译（`fresh_cache`），并打印第一次调用命中缓存的次数，以表明这是一次冷编译。编译后的训练步是否更快取决于模型：融合省下的是小运算之间的内存读写，而这个模型的时间主要花在矩阵乘法上，eager 模式本来就用优化过的库来执行它们。所以这里不要指望有多少收益，甚至可能变慢：比值大于 1，就表示编译后的训练步比在它旁边测得的 eager 基线更慢。

# %%
from torch._dynamo.utils import counters  # noqa: E402
from torch._inductor.utils import fresh_cache  # noqa: E402

compiled_model = fresh_model()
with fresh_cache():  # an empty Inductor cache directory, removed at the end of the block
    compiled = torch.compile(compiled_model)
    compiled_step = make_step(compiled)
    hits_before = counters["inductor"]["fxgraph_cache_hit"]
    start = time.perf_counter()
    compiled_step(x, y)
    sync()
    compile_s = time.perf_counter() - start
    print(f"first compiled step (includes compilation): {compile_s:.1f} s, "
          f"{counters['inductor']['fxgraph_cache_hit'] - hits_before} Inductor cache hits")
    report("torch.compile", compare_ms(lambda: compiled_step(x, y), baseline), None, None)

# %% [markdown] lang="en"
# ## Stage 8 — activation checkpointing
#
# Checkpointing trades compute for memory: inside each checkpointed block, activations are
# not kept for backward but recomputed when needed. Only each block's input is saved. Expect
# less activation memory and a slower step — see [Saving memory](../../memory-saving/).

# %% [markdown] lang="zh"
# ## 阶段 8：激活检查点
#
# 激活检查点用计算换内存：每个被检查点包裹的块内部不为反向传播保留激活值，而是在需要时重新计算，只保存每个块的输入。预期激活值占用的内存会减少，训练步会变慢——参见[节省内存](../../memory-saving/)。

# %%
checkpointed = fresh_model(checkpointed=True)
checkpointed_step = make_step(checkpointed)
checkpointed_mib = saved_activation_mib(lambda: checkpointed(x), checkpointed)
report("activation checkpointing", compare_ms(lambda: checkpointed_step(x, y), baseline), checkpointed_mib, 0.0)
print(f"kept for backward: {checkpointed_mib:.1f} MiB (baseline {baseline_mib:.1f} MiB)")

# %% [markdown] lang="en"
# ## All stages, from this run
#
# Each row was measured above, in this execution of the notebook. "Beside it" is the reference
# each row was timed against, in the same rounds: the fp32 eager step for a training step,
# `eval()` alone for the evaluation forward pass, no workers for loading; the ratio divides the
# two. On a CPU, some stages make the step slower — checkpointing always recomputes, and
# compiling a model made of large matrix multiplications may lose — and the ratio column says
# which. "Saved activations" is the activation memory a forward pass keeps for backward,
# counted with `saved_tensors_hooks`, without the parameters; "weight copies" are the bfloat16
# copies of the weights that autocast keeps for backward as well. Memory is not measured for
# loading, nor for the compiled model, whose generated code saves what it chooses ("—").

# %% [markdown] lang="zh"
# ## 所有阶段，来自本次运行
#
# 每一行都是上文在本次执行中测得的。“beside it”是每一行在同样几轮中一起计时的参照：训练步的参照是 fp32 eager 训练步，评估前向传播的参照是只调用 `eval()`，数据加载的参照是不开 worker；比值就是两者相除。在 CPU 上，有些阶段会让训练步变慢——激活检查点总要重算，而编译一个以大矩阵乘法为主的模型也可能得不偿失——比值一列会说明是哪些。“saved activations”指前向传播为反向传播保留的激活值内存，用 `saved_tensors_hooks` 统计，不含参数；“weight copies”是 autocast 同样为反向传播保留的权重 bfloat16 副本。数据加载和编译后的模型（它由生成的代码自行决定保存什么）没有测量内存（“—”）。

# %%
def cell(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


rows = ["| variant | what is timed | median (ms) | IQR (ms) | beside it (ms) | IQR (ms) | ratio | runs "
        "| saved activations (MiB) | weight copies (MiB) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
for stage, timed, ms, iqr, base_ms, base_iqr, mib, copies in results:
    runs = LOADER_EPOCHS if timed == "load one batch" else REPEATS
    ratio = None if base_ms is None else ms / base_ms
    rows.append(f"| {stage} | {timed} | {ms:.2f} | {iqr:.2f} | {cell(base_ms)} | {cell(base_iqr)} | {cell(ratio)} "
                f"| {runs} | {cell(mib)} | {cell(copies)} |")
display(Markdown("\n".join(rows)))

# %% alt_en="Two bar charts of this run's training-step stages: each stage's step time divided by the fp32 eager step timed beside it, with a line at 1; and the MiB each stage keeps for backward, activations and bfloat16 weight copies stacked" alt_zh="本次运行各训练步阶段的两张柱状图：每个阶段的训练步耗时除以在它旁边测得的 fp32 eager 训练步耗时（在 1 处画有一条竖线）；以及每个阶段为反向传播保留的内存（MiB），激活值与 bfloat16 权重副本叠在一起"
train = [row for row in results if row[1] == "train step" and row[4] is not None]
figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.2), layout="constrained", facecolor="none")
left.barh([row[0] for row in train], [row[2] / row[4] for row in train], color="#e69f00")
left.axvline(1.0, color="#777777", linewidth=1)
left.set_xlabel("step time ÷ fp32 eager step beside it (below 1 is faster)")
left.invert_yaxis()
kept = [row for row in results if row[1] == "train step" and row[6] is not None]
names = [row[0] for row in kept]
right.barh(names, [row[6] for row in kept], color="#0072b2", label="activations")
right.barh(names, [row[7] for row in kept], left=[row[6] for row in kept], color="#cc79a7",
           label="bfloat16 weight copies")
right.set_xlabel("kept for backward, MiB")
right.legend(loc="lower right", frameon=False)
right.invert_yaxis()
plt.show()
