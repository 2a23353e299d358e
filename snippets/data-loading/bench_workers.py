# marks: slow
# timeout: 120
# figure: timeline=timeline
# method: interleaved -- all loaders live at once (idle workers wait), one epoch of each per round, rotated
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


WORKERS = (0, 1, 2, 4, 8)
print("threads: 1 (the stand-in step is one busy thread)")
print("| variant | median epoch (ms) | IQR (ms) | first batch (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|---:|---:|")
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This DataLoader will create")
    loaders = {
        f"num_workers={n}": DataLoader(SlowDataset(), batch_size=BATCH, num_workers=n, persistent_workers=n > 0)
        for n in WORKERS
    }
    loaders["steps only (batches preloaded)"] = list(DataLoader(SlowDataset(), batch_size=BATCH))
    for loader in loaders.values():
        epoch_ms(loader)  # starts the workers
    names = list(loaders)
    epochs = {name: [] for name in names}
    spans = {n: [] for n in WORKERS if n <= 2}
    for round_ in range(REPEATS):  # one epoch of each variant per round, so that a slow moment hits all of them
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:
            n = int(name.split("=")[1]) if name.startswith("num_workers=") else None
            last = round_ == REPEATS - 1 and n in spans
            epochs[name].append(epoch_ms(loaders[name], spans[n] if last else None))
    for name in names:
        report(name, epochs[name])
panels = [{"title": f"num_workers={n}", "lanes": lanes(spans[n], n)} for n in spans]
timeline = {"unit": "ms", "panels": panels}
