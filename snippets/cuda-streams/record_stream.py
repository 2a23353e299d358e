# marks: cuda
# estimate: 5
import torch

SLEEP_CYCLES = 200_000_000  # about 0.1 s at a 2 GHz SM clock: the side stream reads long after the host freed x
N = 1 << 20  # 4 MiB of float32
side = torch.cuda.Stream()


def read_on_side_stream(record):
    x = torch.full((N,), 1.0, device="cuda")  # allocated on the default stream
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        torch.cuda._sleep(SLEEP_CYCLES)
        copy = x.clone()  # the side stream reads x, 0.1 s from now
    if record:
        x.record_stream(side)
    freed_address = x.data_ptr()
    del x  # the host is done with x; the side stream is not
    y = torch.full((N,), 2.0, device="cuda")  # the next tensor of the same size, on the default stream
    reused = y.data_ptr() == freed_address
    torch.cuda.synchronize()
    return reused, copy.mean().item()


read_on_side_stream(False)  # warm-up: caches a block for each stream, loads the kernels
for record in (False, True):
    reused, mean = read_on_side_stream(record)
    label = "with x.record_stream(side)" if record else "without record_stream"
    print(f"{label}: y got x's memory: {reused}; the side stream read mean = {mean:.1f} (x holds 1.0)")
