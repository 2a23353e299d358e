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


def make_loader(dataset, num_workers, torch_sampler=False):
    """shuffle=True puts in torchdata's own RandomSampler, which saves its generator's state;
    torch's RandomSampler, passed as `sampler`, has no state_dict."""
    order = ({"sampler": RandomSampler(dataset, generator=torch.Generator().manual_seed(0))} if torch_sampler
             else {"shuffle": True})
    return StatefulDataLoader(dataset, batch_size=4, num_workers=num_workers,
                              generator=torch.Generator().manual_seed(1), **order)


def resume_matches(make_dataset, num_workers, torch_sampler=False, restore_global_rng=False):
    """Run epoch 0 and three batches of epoch 1, save the loader's state, rebuild everything, load
    it, finish epoch 1 and run epoch 2; compare both epochs with an uninterrupted run's."""
    torch.manual_seed(0)
    reference = make_loader(make_dataset(), num_workers, torch_sampler)
    list(reference)
    uninterrupted, next_epoch = list(reference), list(reference)

    torch.manual_seed(0)
    loader = make_loader(make_dataset(), num_workers, torch_sampler)
    list(loader)
    batches = iter(loader)
    before = [next(batches) for _ in range(3)]
    state, global_rng = loader.state_dict(), torch.get_rng_state()
    del batches, loader  # the crash

    torch.manual_seed(1234)  # a restarted process: its global generator is not where it was
    resumed = make_loader(make_dataset(), num_workers, torch_sampler)
    resumed.load_state_dict(state)
    if restore_global_rng:
        torch.set_rng_state(global_rng)
    after = list(resumed)
    same = torch.equal(torch.cat(before + after), torch.cat(uninterrupted))
    same_next = torch.equal(torch.cat(list(resumed)), torch.cat(next_epoch))
    how = ", torch's RandomSampler" if torch_sampler else ""
    how += ", global RNG restored" if restore_global_rng else ""
    print(f"{make_dataset.__name__}, num_workers={num_workers}{how}: {len(after)} batches after the resume,"
          f" epoch 1 equals the uninterrupted one: {same}, epoch 2: {same_next}")
    return state


print("torch.utils.data.DataLoader has state_dict:", hasattr(DataLoader, "state_dict"))
resume_matches(Numbers, 0)
resume_matches(Numbers, 2)
resume_matches(Numbers, 0, torch_sampler=True)
resume_matches(NoisyFromGlobalRNG, 0, restore_global_rng=True)
resume_matches(NoisyFromGlobalRNG, 2, restore_global_rng=True)
resume_matches(NoisyWithSavedRNG, 0)
state = resume_matches(NoisyWithSavedRNG, 2)

snapshot = state["_snapshot"]
print("batches yielded when saved:", snapshot["_snapshot_step"])
sampler = snapshot["_main_snapshot"]["_sampler_iter_state"]
print("sampler position (samples):", sampler["samples_yielded"])
print("the sampler's own state:", list(sampler["sampler_iter_state"]))
print("per-worker dataset state:", {w: list(s["dataset_state"]) for w, s in snapshot["_worker_snapshots"].items()})

loader = make_loader(Numbers(), 0)
batches = iter(loader)
for _ in range(len(loader)):  # every batch of the epoch, but not the StopIteration after the last
    next(batches)
resumed = make_loader(Numbers(), 0)
resumed.load_state_dict(loader.state_dict())
print("saved after the epoch's last batch: the resumed loader yields", len(list(resumed)), "batches, then",
      len(list(resumed)))
