# marks: cuda
# estimate: 5
import torch

SLEEP_CYCLES = 200_000_000  # about 0.1 s at a 2 GHz SM clock: the write lands long after the reader has run

data = torch.zeros(1024, device="cuda")
data.sum().item()  # loads the reduction kernel and .item()'s pinned buffer: either can wait for an idle GPU
side = torch.cuda.Stream()


def write_late(value):
    """Queue a slow producer on the side stream: a sleep, then the write."""
    side.wait_stream(torch.cuda.current_stream())  # the side stream must not start before data is ready
    with torch.cuda.stream(side):
        torch.cuda._sleep(SLEEP_CYCLES)
        data.fill_(value)


write_late(1.0)
seen = data.sum().item()  # queued on the default stream, which nothing told to wait
print(f"no synchronization: the default stream read sum = {seen:.0f}")
torch.cuda.synchronize()
print(f"after torch.cuda.synchronize(): sum = {data.sum().item():.0f}")

write_late(2.0)
torch.cuda.current_stream().wait_stream(side)
print(f"wait_stream returned while the side stream was still busy: {not side.query()}")
print(f"with wait_stream: the default stream read sum = {data.sum().item():.0f}")

written = torch.cuda.Event()
write_late(3.0)
written.record(side)
torch.cuda.current_stream().wait_event(written)
print(f"with an event: the default stream read sum = {data.sum().item():.0f}")
