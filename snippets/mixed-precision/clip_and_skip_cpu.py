import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")
x, y = torch.randn(64, 16), torch.randn(64, 1)

with torch.autocast("cpu", dtype=torch.float16):
    loss = nn.functional.mse_loss(model(x), y)
scaler.scale(loss).backward()
scaled = nn.utils.get_total_norm([p.grad for p in model.parameters()])
scaler.unscale_(optimizer)
norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(f"scale {scaler.get_scale():.0f}: gradient norm {scaled.item():.1f} scaled, {norm.item():.4f} after unscale_")
scaler.step(optimizer)
scaler.update()


def train(steps_scheduler_always):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    scaler = torch.amp.GradScaler("cpu")
    for step in range(3):
        batch = x.clone()
        if step == 0:
            batch[0, 0] = float("inf")
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = nn.functional.mse_loss(model(batch), y)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        lr = optimizer.param_groups[0]["lr"]
        scale = scaler.get_scale()
        scaler.step(optimizer)
        scaler.update()
        skipped = scaler.get_scale() < scale
        print(f"step {step}: norm {norm.item():.4f}, lr {lr:.3f}, {'skipped' if skipped else 'applied'}")
        if steps_scheduler_always or not skipped:
            scheduler.step()


print("scheduler.step() after every step:")
train(steps_scheduler_always=True)
print("scheduler.step() only after applied steps:")
train(steps_scheduler_always=False)
