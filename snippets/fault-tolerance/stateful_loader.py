# warns: UserWarning: 'set_vital' is deprecated -- torchdata 0.11.0's StatefulDataLoader calls it (the page says so)
import torch
from torch.utils.data import DataLoader, Dataset, RandomSampler, get_worker_info
from torchdata.stateful_dataloader import StatefulDataLoader


class Numbers(Dataset):
    """32 numbers, no randomness in loading them."""

    def __init__(self):
        self.data = torch.arange(32.0)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        return self.data[i]


class NoisyFromGlobalRNG(Numbers):
    """A random augmentation drawn from the process's global generator (a worker's, with workers)."""

    def __getitem__(self, i):
        return self.data[i] + torch.rand(())


class NoisyWithSavedRNG(NoisyFromGlobalRNG):
    """The same augmentation from a generator of its own, which it saves and restores."""

    def __init__(self):
        super().__init__()
        self.generator = None

    def rng(self):
        if self.generator is None:  # created in the worker, so each worker seeds its own
            worker = get_worker_info()
            self.generator = torch.Generator().manual_seed(worker.seed if worker else 0)
        return self.generator

    def __getitem__(self, i):
        return self.data[i] + torch.rand((), generator=self.rng())

    def state_dict(self):
        return {"rng": self.rng().get_state()}

    def load_state_dict(self, state):
        self.rng().set_state(state["rng"])


def make_loader(dataset, num_workers):
    sampler = RandomSampler(dataset, generator=torch.Generator().manual_seed(0))
    return StatefulDataLoader(dataset, batch_size=4, sampler=sampler, num_workers=num_workers,
                              generator=torch.Generator().manual_seed(1))


def resume_matches(make_dataset, num_workers, interrupt_after=3):
    """Load three batches, save the loader's state, rebuild everything, load it, finish the epoch; compare."""
    uninterrupted = list(make_loader(make_dataset(), num_workers))
    loader = make_loader(make_dataset(), num_workers)
    batches = iter(loader)
    before = [next(batches) for _ in range(interrupt_after)]
    state = loader.state_dict()
    del batches, loader  # the crash

    torch.manual_seed(1234)  # a restarted process: its global generator is not where it was
    resumed = make_loader(make_dataset(), num_workers)
    resumed.load_state_dict(state)
    after = list(resumed)
    same = torch.equal(torch.cat(before + after), torch.cat(uninterrupted))
    print(f"{make_dataset.__name__:<18} num_workers={num_workers}: {len(after)} batches after the resume,"
          f" the epoch equals the uninterrupted one: {same}")
    return state


print("torch.utils.data.DataLoader has state_dict:", hasattr(DataLoader, "state_dict"))
resume_matches(Numbers, 0)
resume_matches(Numbers, 2)
resume_matches(NoisyFromGlobalRNG, 2)
resume_matches(NoisyWithSavedRNG, 0)
state = resume_matches(NoisyWithSavedRNG, 2)

snapshot = state["_snapshot"]
print("batches yielded when saved:", snapshot["_snapshot_step"])
print("sampler position (samples):", snapshot["_main_snapshot"]["_sampler_iter_state"]["samples_yielded"])
print("per-worker dataset state:", {w: list(s["dataset_state"]) for w, s in snapshot["_worker_snapshots"].items()})

loader = make_loader(Numbers(), 0)
batches = iter(loader)
for _ in range(len(loader)):  # every batch of the epoch, but not the StopIteration after the last
    next(batches)
resumed = make_loader(Numbers(), 0)
resumed.load_state_dict(loader.state_dict())
print("saved after the epoch's last batch: the resumed loader yields", len(list(resumed)), "batches, then",
      len(list(resumed)))
