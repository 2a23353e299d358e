import torch
from torch import nn


def batch(step):
    data = torch.Generator().manual_seed(step)
    x = torch.randn(16, 8, generator=data)
    return x, x.sum(dim=1, keepdim=True)


def setup(seed):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.2), nn.Linear(16, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=0.05)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    return model, optimizer, scheduler


def train(model, optimizer, scheduler, steps):
    for step in steps:
        x, y = batch(step)
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()


model, optimizer, scheduler = setup(seed=0)
train(model, optimizer, scheduler, range(6))
uninterrupted = [p.detach().clone() for p in model.parameters()]
print(f"uninterrupted: lr {scheduler.get_last_lr()[0]:.4f}")

model, optimizer, scheduler = setup(seed=0)
train(model, optimizer, scheduler, range(3))
torch.save({
    "step": 3,
    "model": model.state_dict(),
    "optimizer": optimizer.state_dict(),
    "scheduler": scheduler.state_dict(),
    "rng": torch.get_rng_state(),
    "cuda_rng": torch.cuda.get_rng_state_all(),  # one per GPU; an empty list without one
}, "checkpoint.pt")


def resume(restore):
    model, optimizer, scheduler = setup(seed=1)  # a new process: different initial state
    checkpoint = torch.load("checkpoint.pt")
    model.load_state_dict(checkpoint["model"])
    if "optimizer" in restore:
        optimizer.load_state_dict(checkpoint["optimizer"])
    if "scheduler" in restore:
        scheduler.load_state_dict(checkpoint["scheduler"])
    if "rng" in restore:
        torch.set_rng_state(checkpoint["rng"])
        torch.cuda.set_rng_state_all(checkpoint["cuda_rng"])
    train(model, optimizer, scheduler, range(checkpoint["step"], 6))
    same = all(torch.equal(p, q) for p, q in zip(model.parameters(), uninterrupted, strict=True))
    print(f"model + {' + '.join(restore)}: identical to uninterrupted: {same}, lr {scheduler.get_last_lr()[0]:.4f}")


resume(["optimizer", "scheduler", "rng"])
resume(["scheduler", "rng"])
resume(["optimizer", "rng"])
resume(["optimizer", "scheduler"])
print("optimizer state of one weight:", sorted(torch.load("checkpoint.pt")["optimizer"]["state"][0]))
