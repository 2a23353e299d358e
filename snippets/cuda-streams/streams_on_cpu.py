# marks: cpu_only
import torch


def attempt(label, make):
    try:
        print(f"{label}: {make()}")
    except (RuntimeError, AssertionError) as error:
        print(f"{label}: {type(error).__name__}: {error}")


print("torch.accelerator.is_available():", torch.accelerator.is_available())
attempt("torch.cuda.Stream()", torch.cuda.Stream)
attempt("torch.cuda.Event(enable_timing=True)", lambda: torch.cuda.Event(enable_timing=True))
attempt("torch.cuda.current_stream()", torch.cuda.current_stream)
attempt('torch.Stream("cuda")', lambda: torch.Stream("cuda"))
attempt('torch.Stream("cpu")', lambda: torch.Stream("cpu"))

with torch.cuda.stream(None):
    print("torch.cuda.stream(None) is a no-op context:", (torch.ones(2) + 1).tolist())

with torch.Stream("cpu") as stream:
    print(f"with torch.Stream('cpu') as stream: stream_id={stream.stream_id}, {(torch.ones(2) + 1).tolist()}")
