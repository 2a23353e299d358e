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
# [Download this notebook (.ipynb)](speed-up-training.ipynb). It runs on the CPU, or on the
# machine's accelerator (`torch.accelerator`: CUDA, MPS, XPU …) where it finds one; stage 6 runs
# on CUDA only, and stage 3 only where Python can start its workers with `fork` (Linux and macOS,
# not Windows: see stage 3).

# %% [markdown] lang="zh"
# # 一步步加速一个训练循环
#
# 本指南的其他页面各讲一种技术；这个 notebook 则把它们逐一用到同一个训练循环上——一个在合成数据上训练的小型多层感知机——并在同一次运行中、在执行它的机器上测量每个阶段。这里没有任何估算：末尾的表格和图都由前面的测量结果计算得出（没有测量的地方，单元格显示“—”）；你读到的是这个 notebook 某一次执行的记录，所用机器写在标题下方，测试会再次执行它并比对它打印的内容。
#
# [下载此 notebook（.ipynb）](speed-up-training.ipynb)。它在 CPU 上运行；如果找到加速器（`torch.accelerator`：CUDA、MPS、XPU 等），就在加速器上运行。阶段 6 只在 CUDA 上运行；阶段 3 只在 Python 能用 `fork` 启动 worker 进程的系统上运行（Linux 和 macOS，Windows 不行，见阶段 3）。

# %%
import multiprocessing
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
# The tempting measurement wraps the first step in `time.time()`. It mixes in one-off costs (the
# first call allocates memory, AdamW creates its state, libraries set themselves up), and on a
# GPU the clock stops when Python has *queued* the work, not when the device has done it,
# because CUDA kernels run asynchronously. The sound way: warm up, synchronize the device,
# repeat, and take the median, reading `time.perf_counter()`, the clock Python's documentation
# recommends for intervals (monotonic, with the highest resolution) — see
# [Devices and async execution](../../devices/). Each call is timed on its own, with the device
# synchronized before and after it: on a GPU that is the latency of one step, including the CPU
# time spent launching it, which a loop of steps would partly hide behind the previous step's
# GPU work. A stage is only compared with a reference timed in the same rounds: from stage 2
# on, each stage and its reference (for a training step, a baseline step on its own copy of the
# model) take turns, call by call (`compare_ms`), so that a slow moment of the machine falls on
# both. Each comparison prints the ratio of the two medians, how far apart the medians are, and
# their spread (the mean of the two IQRs): where the medians differ by less than the spread, the
# ratio shows no measurable difference, whether it is printed above or below 1.

# %% [markdown] lang="zh"
# ## 阶段 1：正确地计时
#
# 最顺手的测法是用 `time.time()` 包住第一个训练步。但这样会混入一次性开销（首次调用要分配内存，AdamW 要创建它的状态，各个库要完成初始化）；而在 GPU 上，Python 把任务*排进队列*之后计时就停了，设备这时还没算完，因为 CUDA 内核是异步执行的。可靠的做法是：先预热，再同步设备，重复多次，取中位数，并用 `time.perf_counter()` 读时间——Python 文档推荐用它测时间间隔（单调，分辨率最高）。参见[设备与异步执行](../../devices/)。每次调用单独计时，前后都同步设备：在 GPU 上，这测的是单个训练步的延迟，其中包括 CPU 发射它的时间，而连续运行的训练步会把这段时间部分地藏在上一步的 GPU 计算后面。每个阶段只和与它在同样几轮中交替测得的参照比较：从阶段 2 起，每个阶段与它的参照（训练步的参照是一份独立模型副本上的基线训练步）逐次交替运行（`compare_ms`），机器偶尔变慢时两者都会受到影响。每次比较都会打印两个中位数之比、两个中位数相差多少，以及它们的波动范围（两个 IQR 的平均值）：如果两个中位数之差小于波动范围，那么无论打印出的比值大于还是小于 1，都说明没有可测出的差别。

# %%
def sync():
    if device.type != "cpu":
        torch.accelerator.synchronize(device)  # wait until the device has run what was queued


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
    """Median and IQR, in ms, of `fn` and of `reference`, timed call by call in alternating order,
    each call alone between two synchronizations: the latency of one call, not a loop's throughput."""
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


def apart(ms: float, iqr: float, base_ms: float, base_iqr: float) -> str:
    """How far apart two medians are, beside their spread (the mean of their IQRs)."""
    return f"medians {abs(ms - base_ms):.2f} ms apart, spread {(iqr + base_iqr) / 2:.2f} ms"


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
parameter_mib = sum(p.numel() * p.element_size() for p in model.parameters()) / 2**20
print(f"between steps: {parameter_mib:.2f} MiB of parameters and {2 * parameter_mib:.2f} MiB of AdamW's two moments; "
      f"gradients: {parameter_mib:.2f} MiB from backward to zero_grad")
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
# [no_grad and inference_mode](../../no-grad-inference/). This cell times the forward pass with
# and without `inference_mode` (not `no_grad`), and counts what each keeps for backward.

# %% [markdown] lang="zh"
# ## 阶段 2：在 `inference_mode` 下评估
#
# 评估不需要计算图。`model.eval()` 只是把 dropout、BatchNorm 等层切换到推理行为，并不会阻止自动微分记录运算；`torch.inference_mode()` 才会，而且连 `no_grad` 仍要做的一些簿记工作也省掉了——参见 [no_grad 与 inference_mode](../../no-grad-inference/)。这个单元格对开与不开 `inference_mode` 的前向传播计时（不测 `no_grad`），并统计两者各为反向传播保留了多少。

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
print(f"inference_mode: {eval_inference_ms / eval_recording_ms:.2f}x the time of the recorded forward; "
      + apart(eval_inference_ms, eval_inference_iqr, eval_recording_ms, eval_recording_iqr))
results += [
    ("eval() only", "eval forward", eval_recording_ms, eval_recording_iqr, None, None, eval_recording_mib, 0.0),
    ("eval() + inference_mode", "eval forward", eval_inference_ms, eval_inference_iqr,
     eval_recording_ms, eval_recording_iqr, eval_inference_mib, 0.0),
]

# %% [markdown] lang="en"
# ## Stage 3 — feed it with DataLoader workers
#
# Real datasets spend time per sample waiting for a disk or a network, and computing, for
# example decoding. Here each sample sleeps: `time.sleep(0.0002)` stands in for the waiting
# only, not for decoding that keeps a core busy (that case is measured on
# [Data loading](../../data-loading/#how-many-workers)). A sleep lasts at least what it asks
# for, so the cell prints how long one takes here, and what 128 of them add up to. With
# `num_workers=0` the training process loads every sample itself; with two workers, two other
# processes load batches at the same time, and a sleeping worker needs no core. The two-worker
# loader keeps its workers alive between epochs (`persistent_workers=True`; with
# `num_workers=0` there are none to keep), and the two loaders' epochs alternate. The loop only
# loads the batches and copies them to the device: no training step runs in it, so this
# measures loading alone, not how much of it a training loop would overlap with its steps. The
# cell prints a batch's loading time against the training step's median from stage 1: while
# loading a batch takes longer than a step, a training loop fed by this loader would wait for its
# input. `pin_memory=True` helps when batches are copied to a GPU, so it is on only there — see
# [Data loading](../../data-loading/). The dataset class is defined in this notebook, and a
# worker started with `spawn` (Windows' only start method, and macOS' default) cannot import it,
# so the workers are started with `fork`; where Python offers no `fork`, the cell prints that
# and measures nothing.

# %% [markdown] lang="zh"
# ## 阶段 3：用 DataLoader 的 worker 进程加载数据
#
# 真实数据集处理每个样本都要花时间：一部分是等待磁盘或网络，一部分是计算，比如解码。这里让每个样本睡眠：`time.sleep(0.0002)` 只代表等待，不代表解码这类占着 CPU 核心的工作（那种情况在[数据加载](../../data-loading/#how-many-workers)一页有测量）。一次睡眠至少持续所请求的时长，所以单元格会打印在这里睡一次实际要多久，以及 128 次加起来是多少。`num_workers=0` 时由训练进程自己加载每个样本；用两个 worker 时，由另外两个进程同时加载批次，而睡眠中的 worker 不占用 CPU 核心。两个 worker 的加载器在 epoch 之间让 worker 常驻（`persistent_workers=True`；`num_workers=0` 时没有 worker 可留），两个加载器的 epoch 交替运行。循环里只加载批次并把它们复制到设备上，并不运行训练步，所以这里测的只是加载本身，而不是训练循环能把多少加载时间和训练步重叠起来。单元格会把加载一个批次的时间与阶段 1 中训练步的中位数相比：只要加载一个批次比一个训练步还慢，用这个加载器喂数据的训练循环就得等输入。`pin_memory=True` 在把批次复制到 GPU 时才有用，因此只在 GPU 上开启——参见[数据加载](../../data-loading/)。数据集的类定义在这个 notebook 里，用 `spawn` 启动的 worker（Windows 只有这一种启动方式，macOS 默认也用它）导入不了它，所以 worker 用 `fork` 启动；如果 Python 不提供 `fork`，单元格会打印出来，什么也不测。

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
        multiprocessing_context="fork" if num_workers > 0 else None,  # workers inherit SlowVectors
    )

    def epoch():
        for xb, yb in loader:
            xb, yb = xb.to(device, non_blocking=True), yb.to(device, non_blocking=True)

    return epoch, len(loader)


latency_s = SlowVectors().latency_s
sleeps = []
for _ in range(200):
    start = time.perf_counter()
    time.sleep(latency_s)
    sleeps.append(1000 * (time.perf_counter() - start))
sleep_ms = statistics.median(sleeps)
print(f"one time.sleep({latency_s}) lasts {sleep_ms:.3f} ms here (median of {len(sleeps)}); "
      f"{BATCH} of them: {BATCH * sleep_ms:.1f} ms")
if "fork" in multiprocessing.get_all_start_methods():
    (with_workers, batches), (without_workers, _) = epoch_of(2), epoch_of(0)
    # the warm-up epoch starts the workers; then the two loaders alternate, epoch by epoch
    two_ms, two_iqr, zero_ms, zero_iqr = (
        t / batches for t in compare_ms(with_workers, without_workers, warmup=1, repeats=LOADER_EPOCHS)
    )
    print(f"num_workers=0: {zero_ms:.1f} ms per batch of {BATCH}")
    print(f"num_workers=2: {two_ms:.1f} ms per batch of {BATCH}")
    print(f"2 workers: {two_ms / zero_ms:.2f}x the time of 0 workers; " + apart(two_ms, two_iqr, zero_ms, zero_iqr))
    print(f"loading one batch with 2 workers takes {two_ms / baseline_ms:.2f}x the median training step")
    results += [
        ("DataLoader, 0 workers", "load one batch", zero_ms, zero_iqr, None, None, None, None),
        ("DataLoader, 2 workers", "load one batch", two_ms, two_iqr, zero_ms, zero_iqr, None, None),
    ]
else:
    print("DataLoader workers: not measured, this Python cannot start them with fork")

# %% [markdown] lang="en"
# ## Stage 4 — bfloat16 autocast
#
# Under `torch.autocast`, matrix multiplications run in bfloat16 while precision-sensitive
# operations stay in float32. bfloat16 has float32's exponent range, so no gradient scaler
# is needed. Whether it is *faster* depends on the hardware and on the model: GPUs with Tensor
# Cores and CPUs with native bfloat16 instructions gain when matrix multiplications take most of
# the step; other CPUs may get slower — see [Mixed precision](../../mixed-precision/). On memory
# it gains and loses: the activations are kept in bfloat16, but autocast also keeps, for the
# backward pass, the bfloat16 copy of each weight whose input needs a gradient (here every
# weight but the first layer's, whose input is the data). The cell counts the two apart and
# prints their total beside the baseline's: with a small batch, the weight copies can outweigh
# what the smaller activations save, so that autocast keeps more for backward than float32.

# %% [markdown] lang="zh"
# ## 阶段 4：bfloat16 自动混合精度
#
# 在 `torch.autocast` 下，矩阵乘法以 bfloat16 运行，对精度敏感的运算仍保持 float32。bfloat16 的指数范围与 float32 相同，因此不需要梯度缩放。它是否*更快*取决于硬件和模型：有 Tensor Core 的 GPU 和支持原生 bfloat16 指令的 CPU，在矩阵乘法占训练步大部分时间时会受益，其他 CPU 反而可能变慢——参见[混合精度](../../mixed-precision/)。内存方面则有得有失：激活值以 bfloat16 保存，但对于输入需要梯度的每个权重，autocast 还会为反向传播留下它的 bfloat16 副本（这里除了第一层的权重都是如此，第一层的输入是数据本身）。下面的单元格把两者分开统计，并把两者之和与基线并列打印：批次较小时，权重副本可能比激活值省下的还多，于是 autocast 为反向传播保留的内存反而比 float32 更多。

# %%
def report(stage: str, measured: tuple[float, float, float, float], mib: float | None, copies_mib: float | None):
    ms, iqr, base_ms, base_iqr = measured
    print(f"{stage}: {ms:.1f} ms per step, baseline beside it {base_ms:.1f} ms ({ms / base_ms:.2f}x its time); "
          + apart(ms, iqr, base_ms, base_iqr))
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
# `fused=True`, one operator does the whole update, plus one that advances the step counters:
# on a GPU it launches kernels over chunks of tensors, on the CPU it loops over the parameters
# inside that one operator — see [Optimizers](../../optimizers/). It is the same update, equal
# up to floating-point rounding, so the step changes only in how long the update takes. To ask
# which implementation AdamW picks, the cell calls `_default_to_fused_or_foreach`, the internal
# function AdamW itself calls when neither `foreach` nor `fused` is given; it is not a public
# API and may change, and the [Optimizers](../../optimizers/) page shows the public way to see it:
# the profiler counts the `aten::_foreach_*` operators a step dispatches.

# %% [markdown] lang="zh"
# ## 阶段 5：融合优化器
#
# `AdamW` 对每个参数张量执行若干个逐元素运算。默认用哪种实现，取决于参数在哪里：在 CUDA（以及 XPU、MTIA）上是 `foreach`，每个运算对所有张量执行一次；在 CPU 上是对参数逐个循环，每个运算对每个张量各执行一次（单元格会打印本次运行的基线用的是哪一种；显式传入 `fused=False` 则在任何设备上都会强制使用逐个循环）。`fused=True` 时，整个更新由一个算子完成，另有一个算子负责推进步数计数器：在 GPU 上，这个算子按张量分块发射内核；在 CPU 上，它在算子内部对参数逐个循环——参见[优化器](../../optimizers/)。更新的算法相同，结果只在浮点舍入上有差别，所以训练步中变的只是更新所花的时间。为了查出 AdamW 选了哪种实现，单元格调用了 `_default_to_fused_or_foreach`：在 `foreach` 和 `fused` 都没有指定时，AdamW 自己调用的就是这个内部函数。它不是公开 API，随时可能改变；[优化器](../../optimizers/)一页给出了公开的查看方法：用 profiler 统计一个训练步分派了哪些 `aten::_foreach_*` 算子。

# %%
# internal, not a public API: what AdamW itself asks when neither foreach nor fused is given
from torch.optim.optimizer import _default_to_fused_or_foreach  # noqa: E402

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
# stage runs only where the notebook found a CUDA GPU. The CPU has a switch of its own,
# `torch.backends.mkldnn.matmul.fp32_precision`, which `torch.set_float32_matmul_precision("medium")`
# sets to `"bf16"`, and which hands float32 matrix multiplications to oneDNN: see
# [On the CPU: "medium"](../../matmul-precision/#medium-cpu).

# %% [markdown] lang="zh"
# ## 阶段 6：TF32 矩阵乘法（仅 CUDA）
#
# 在 Ampere 及更新的 NVIDIA GPU 上，float32 矩阵乘法可以用 TF32 在 Tensor Core 上运行：保留 float32 的数值范围和 10 位尾数。PyTorch 默认不对矩阵乘法开启它，一个设置就能打开——参见[float32 矩阵乘法精度](../../matmul-precision/)。这个设置在 CPU 上不起作用，所以这一阶段只在 notebook 找到 CUDA GPU 时运行。CPU 有它自己的开关 `torch.backends.mkldnn.matmul.fp32_precision`：`torch.set_float32_matmul_precision("medium")` 会把它设为 `"bf16"`，它会把 float32 矩阵乘法交给 oneDNN，参见[在 CPU 上：“medium”](../../matmul-precision/#medium-cpu)。

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
# before, Inductor's on-disk cache makes that first call much faster; so the cell compiles into
# a new, empty cache directory (`fresh_cache`, an internal helper of Inductor, not a public API;
# setting the environment variable `TORCHINDUCTOR_CACHE_DIR` to an empty directory before
# starting Python does the same), and prints the cache hits of that first call to show it was a
# cold compile. Whether the compiled step is faster depends on the model: fusion saves memory
# traffic between small operations, but this model is made of matrix multiplications, which
# eager mode already runs in optimized libraries, and only the model is compiled: AdamW's step
# stays eager (the [Optimizers](../../optimizers/#compile) page compiles it). So expect little
# gain here, perhaps none: read the ratio with the spread printed beside it, as in stage 1. The
# cell also counts what the compiled model keeps for backward, with the same hooks as the other
# stages: the compiled code saves its tensors for backward through autograd too.

# %% [markdown] lang="zh"
# ## 阶段 7：`torch.compile`
#
# `torch.compile` 把模型捕获成图，并为其生成融合内核。第一次调用要付出编译开销，之后的调用运行编译好的代码。这两部分开销都做了测量——参见 [torch.compile](../../torch-compile/)。如果这台机器以前编译过同一个模型，Inductor 的磁盘缓存会让第一次调用快得多；所以这个单元格在一个新建的空缓存目录中编译（`fresh_cache`，它是 Inductor 的内部辅助函数，不是公开 API；在启动 Python 之前把环境变量 `TORCHINDUCTOR_CACHE_DIR` 设为一个空目录，效果相同），并打印第一次调用命中缓存的次数，以表明这是一次冷编译。编译后的训练步是否更快取决于模型：融合省下的是小运算之间的内存读写，但这个模型由矩阵乘法组成，eager 模式本来就用优化过的库来执行它们；而且这里只编译了模型，AdamW 的更新步仍以 eager 模式运行（[优化器](../../optimizers/#compile)一页编译了它）。所以这里不要指望有多少收益，也许根本没有：读比值时要像阶段 1 说的那样，对照它旁边打印的波动范围。这个单元格还用与其他阶段相同的钩子统计编译后的模型为反向传播保留了什么：编译生成的代码同样通过自动微分保存反向传播要用的张量。

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
    compiled_kept = saved_for_backward_mib(lambda: compiled(x), compiled_model)
    report("torch.compile", compare_ms(lambda: compiled_step(x, y), baseline), *compiled_kept)

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
# two. "Apart ÷ spread" divides how far apart the two medians are by their spread (the mean of
# the two IQRs): below 1, the row shows no measurable difference from its reference, whichever
# side of 1 its ratio is on; above 1, a ratio below 1 means faster and one above 1 slower.
# Checkpointing recomputes on every device, and compiling a model made of matrix
# multiplications may gain nothing. "Saved activations" is the activation memory a forward pass
# keeps for backward, counted with `saved_tensors_hooks`, without the parameters; "weight
# copies" are saved tensors shaped like a weight that are not the weight itself, such as the
# bfloat16 copies autocast keeps for backward. Memory is not measured for loading ("—"). None of
# this is the training's peak memory: the parameters and AdamW's two moments stay allocated
# between steps, and the gradients exist from backward to `zero_grad` (stage 1 prints their
# sizes) — see [Saving memory](../../memory-saving/#checkpoint-trade-off).

# %% [markdown] lang="zh"
# ## 本次运行的全部阶段
#
# 每一行都是上文在本次执行中测得的。“beside it”（同场参照）是每一行在同样几轮中一起计时的参照：训练步的参照是 fp32 eager 训练步，评估前向传播的参照是只调用 `eval()`，数据加载的参照是不开 worker；“ratio”（比值）就是两者相除。“apart ÷ spread”（差距 ÷ 波动）是两个中位数之差除以它们的波动范围（两个 IQR 的平均值）：小于 1 时，这一行与参照之间没有可测出的差别，不管比值落在 1 的哪一侧；大于 1 时，比值小于 1 表示更快，大于 1 表示更慢。激活检查点在任何设备上都要重算，而编译一个由矩阵乘法组成的模型也可能毫无收益。“saved activations”（保存的激活值）指前向传播为反向传播保留的激活值内存，用 `saved_tensors_hooks` 统计，不含参数；“weight copies”（权重副本）是形状与某个权重相同、但不是该权重本身的已保存张量，比如 autocast 为反向传播保留的 bfloat16 副本。数据加载没有测量内存（“—”）。这些都不是训练的峰值内存：参数和 AdamW 的两个矩估计在训练步之间一直占着内存，梯度则从反向传播一直存在到 `zero_grad`（阶段 1 打印了它们的大小）——参见[节省内存](../../memory-saving/#checkpoint-trade-off)。

# %%
def cell(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


rows = ["| variant | what is timed | median (ms) | IQR (ms) | beside it (ms) | IQR (ms) | ratio | apart ÷ spread "
        "| runs | saved activations (MiB) | weight copies (MiB) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
for stage, timed, ms, iqr, base_ms, base_iqr, mib, copies in results:
    runs = LOADER_EPOCHS if timed == "load one batch" else REPEATS
    ratio = None if base_ms is None else ms / base_ms
    spread = None if base_ms is None else (iqr + base_iqr) / 2
    apart_per_spread = None if not spread else abs(ms - base_ms) / spread
    rows.append(f"| {stage} | {timed} | {ms:.2f} | {iqr:.2f} | {cell(base_ms)} | {cell(base_iqr)} | {cell(ratio)} "
                f"| {cell(apart_per_spread)} | {runs} | {cell(mib)} | {cell(copies)} |")
display(Markdown("\n".join(rows)))

# %% alt_en="Two bar charts of this run's training-step stages: each stage's step time divided by the fp32 eager step timed beside it, drawn from a line at 1, with an error bar of the two medians' spread divided by the baseline's median; and the MiB each stage keeps for backward, activations and weight copies stacked" alt_zh="本次运行各训练步阶段的两张柱状图：每个阶段的训练步耗时除以与它交替测得的 fp32 eager 训练步耗时，柱子从 1 处的竖线画起，误差线是两个中位数的波动范围除以基线的中位数；以及每个阶段为反向传播保留的内存（MiB），激活值与权重副本叠在一起"
train = [row for row in results if row[1] == "train step" and row[4] is not None]
figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.2), layout="constrained", facecolor="none")
ratios = [row[2] / row[4] for row in train]
spreads = [(row[3] + row[5]) / 2 / row[4] for row in train]  # an error bar that crosses 1: no measurable difference
left.barh([row[0] for row in train], [r - 1 for r in ratios], left=1, xerr=spreads, color="#e69f00",
          error_kw={"ecolor": "#555555", "capsize": 3})
left.axvline(1.0, color="#777777", linewidth=1)
left.set_xlabel("step time ÷ fp32 eager step beside it (below 1 is faster)")
left.invert_yaxis()
kept = [row for row in results if row[1] == "train step" and row[6] is not None]
names = [row[0] for row in kept]
right.barh(names, [row[6] for row in kept], color="#0072b2", label="activations")
right.barh(names, [row[7] for row in kept], left=[row[6] for row in kept], color="#cc79a7",
           label="weight copies")
right.set_xlabel("kept for backward, MiB")
right.legend(loc="lower right", frameon=False)
right.invert_yaxis()
plt.show()
