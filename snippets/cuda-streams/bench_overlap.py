# marks: cuda
# estimate: 10
# method: interleaved -- the four variants alternate in rounds after a warm-up, each timed by a pair of CUDA events
# figure: timeline=timeline
import statistics

import torch

ROUNDS, SIZE = 10, 4096
torch.manual_seed(0)
torch.set_num_threads(1)
host = torch.randn(64 * 2**20).pin_memory()  # 256 MiB of page-locked host memory
device_copy = torch.empty(host.shape, device="cuda")
a = torch.randn(SIZE, SIZE, device="cuda", dtype=torch.bfloat16)
product = torch.empty_like(a)
side = torch.cuda.Stream()
default = torch.cuda.current_stream()


def timed(stream, work):
    """Run work on stream between two timing events; return the events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record(stream)
    with torch.cuda.stream(stream):
        work()
    end.record(stream)
    return start, end


def copy():
    device_copy.copy_(host, non_blocking=True)


def matmuls():
    for _ in range(count):
        torch.mm(a, a, out=product)


def sequential():
    return {"default": [("h2d_copy", timed(default, copy)), ("matmul", timed(default, matmuls))]}


def overlapped():
    side.wait_stream(default)
    copied = timed(side, copy)  # queued first, so that the copy starts at once
    spans = {"default": [("matmul", timed(default, matmuls))], "side": [("h2d_copy", copied)]}
    default.wait_stream(side)
    return spans


def copy_alone():
    return {"default": [("h2d_copy", timed(default, copy))]}


def matmuls_alone():
    return {"default": [("matmul", timed(default, matmuls))]}


def run(variant):
    """The variant's time and its spans, all measured from one event on the default stream."""
    begin, finish = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    begin.record(default)
    spans = variant()
    finish.record(default)
    finish.synchronize()
    spans_ms = {lane: [[begin.elapsed_time(s), begin.elapsed_time(e), kind] for kind, (s, e) in pairs]
                for lane, pairs in spans.items()}
    return begin.elapsed_time(finish), spans_ms


def median_ms(variant, repeats=5):
    return statistics.median(run(variant)[0] for _ in range(repeats))


count = 1
for variant in (copy_alone, matmuls_alone, sequential, overlapped):  # warm-up: cuBLAS, the side stream
    run(variant)

count = max(1, round(median_ms(copy_alone) / median_ms(matmuls_alone)))  # about as much matrix work as the copy

variants = {
    "copy alone": copy_alone,
    "matmuls alone": matmuls_alone,
    "sequential (one stream)": sequential,
    "overlapped (two streams)": overlapped,
}
samples = {name: [] for name in variants}
last = {}
for _ in range(ROUNDS):
    for name, variant in variants.items():
        total, last[name] = run(variant)
        samples[name].append(total)

medians = {name: statistics.median(values) for name, values in samples.items()}
print(f"threads: {torch.get_num_threads()}")
print("| variant | median (ms) | IQR (ms) | runs |")
print("|---|---:|---:|---:|")
for name, values in samples.items():
    q1, _, q3 = statistics.quantiles(values, n=4)
    print(f"| {name} | {medians[name]:.3f} | {q3 - q1:.3f} | {ROUNDS} |")
both = medians["sequential (one stream)"]
print(f"sequential took at least 90% of copy + matmuls measured alone: "
      f"{both >= 0.9 * (medians['copy alone'] + medians['matmuls alone'])}")
print(f"overlapped took less than 80% of sequential: {medians['overlapped (two streams)'] < 0.8 * both}")
(copy_start, copy_end, _), = last["overlapped (two streams)"]["side"]
(mm_start, mm_end, _), = last["overlapped (two streams)"]["default"]
shared = min(copy_end, mm_end) - max(copy_start, mm_start)
print(f"in the last round, copy and matmuls ran at the same time for at least half of the shorter one: "
      f"{shared >= 0.5 * min(copy_end - copy_start, mm_end - mm_start)}")


def lanes(spans):
    return [{"lane": f"{name}_stream", "spans": [[round(s, 3), round(e, 3), kind] for s, e, kind in pairs]}
            for name, pairs in spans.items()]


timeline = {"unit": "ms", "panels": [
    {"title": "copy_() and mm() on the default stream", "lanes": lanes(last["sequential (one stream)"])},
    {"title": "copy_() under torch.cuda.stream(side)", "lanes": lanes(last["overlapped (two streams)"])},
]}
