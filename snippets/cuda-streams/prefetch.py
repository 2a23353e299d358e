# marks: cuda
# estimate: 5
import torch

torch.manual_seed(0)
# what a DataLoader with pin_memory=True yields; small integers, so that every sum is exact in float32
batches = [torch.randint(0, 10, (1 << 20,)).float().pin_memory() for _ in range(4)]
side = torch.cuda.Stream()


def prefetch(host_batch):
    """Start copying a batch on the side stream; return its tensor on the GPU."""
    with torch.cuda.stream(side):
        return host_batch.to("cuda", non_blocking=True)


sums = []
ahead = prefetch(batches[0])
for step in range(len(batches)):
    torch.cuda.current_stream().wait_stream(side)  # the step must not read the batch before it arrives
    batch = ahead
    batch.record_stream(torch.cuda.current_stream())  # allocated on side, used on the default stream
    if step + 1 < len(batches):
        ahead = prefetch(batches[step + 1])  # copies while this step computes
    sums.append(batch.sum())
print("each step summed its whole batch:", [s.item() for s in sums] == [b.sum().item() for b in batches])
