# marks: slow
# timeout: 120
# figure: timeline=timeline
# method: sequential -- each num_workers is timed over whole epochs after a warm-up one; the last feeds the timeline
import statistics
import time
import warnings

import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

SAMPLES, BATCH, REPEATS, STEP_S = 128, 16, 5, 0.02


class SlowDataset(Dataset):
    """Each item waits 2 ms, like a read from disk or network: the CPU is idle meanwhile."""

    def __len__(self):
        return SAMPLES

    def __getitem__(self, index):
        start = time.perf_counter()
        time.sleep(0.002)
        worker = get_worker_info()
        when = torch.tensor([worker.id if worker else -1, start, time.perf_counter()], dtype=torch.float64)
        return torch.full((64,), float(index)), when


def training_step(batch):
    """Stands in for forward, backward and optimizer step: keeps this process busy for 20 ms."""
    deadline = time.process_time() + STEP_S
    while time.process_time() < deadline:
        pass


def epoch_ms(loader, spans=None):
    """The epoch's time and, within it, the wait for its first batch; `spans` (a list) receives
    when each batch was loaded, and by which process, and when each step ran."""
    start = time.perf_counter()
    first = None
    for batch, when in loader:
        if first is None:
            first = time.perf_counter() - start
        step = time.perf_counter()
        training_step(batch)
        if spans is not None:
            times = (when[:, 1].min().item(), when[:, 2].max().item(), step, time.perf_counter())
            spans.append((int(when[0, 0]), *(round((t - start) * 1e3, 2) for t in times)))
    return (time.perf_counter() - start) * 1e3, first * 1e3


def lanes(spans, num_workers):
    """One lane for the main process (its steps, and its loading without workers), one per worker."""
    loads = {w: [[load, loaded, "load"] for w_, load, loaded, _, _ in spans if w_ == w] for w in range(-1, num_workers)}
    steps = [[step, stepped, "step"] for *_, step, stepped in spans]
    return [{"lane": "main", "spans": sorted(loads[-1] + steps)},
            *({"lane": "worker", "index": w, "spans": loads[w]} for w in range(num_workers))]


def median_iqr(values):
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.1f} | {q3 - q1:.1f}"


def report(variant, epochs):
    totals, firsts = zip(*epochs, strict=True)
    print(f"| {variant} | {median_iqr(totals)} | {median_iqr(firsts)} | {REPEATS} |")


spans, panels = [], []
print("threads: 1 (the stand-in step is one busy thread)")
print("| variant | median epoch (ms) | IQR (ms) | first batch (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|---:|---:|")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    for num_workers in (0, 1, 2, 4, 8):
        loader = DataLoader(
            SlowDataset(), batch_size=BATCH, num_workers=num_workers, persistent_workers=num_workers > 0
        )
        epoch_ms(loader)  # starts the workers
        report(f"num_workers={num_workers}", [epoch_ms(loader) for _ in range(REPEATS - 1)] + [epoch_ms(loader, spans)])
        if num_workers <= 2:
            panels.append({"title": f"num_workers={num_workers}", "lanes": lanes(spans, num_workers)})
        spans.clear()
    preloaded = list(DataLoader(SlowDataset(), batch_size=BATCH))
    report("steps only (batches preloaded)", [epoch_ms(preloaded) for _ in range(REPEATS)])
timeline = {"unit": "ms", "panels": panels}
