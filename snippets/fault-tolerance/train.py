# marks: distributed
# launch: torchrun --standalone --nproc-per-node=2
import argparse
import gc
import json
import os
import warnings
from pathlib import Path

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from torch.distributed.checkpoint.stateful import Stateful
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset
from torchdata.stateful_dataloader import StatefulDataLoader

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=12)
parser.add_argument("--checkpoint-every", type=int, default=3)
parser.add_argument("--checkpoints", default="checkpoints")
parser.add_argument("--crash-before-step", type=int, default=-1, help="rank 1 raises there, first attempt only")
parser.add_argument("--forget-rng-and-position", action="store_true", help="a broken resume, to compare")
parser.add_argument("--save-final", help="rank 0 writes the final parameters and losses here")
parser.add_argument("--stateful-loader-workers", type=int, metavar="N",
                    help="load with torchdata's StatefulDataLoader and N workers, and checkpoint its position")
parser.add_argument("--events", help="a folder: each rank appends what it does (start, load, step, save, crash)")
args = parser.parse_args()

# torchdata 0.11.0 calls a deprecated torch function in StatefulDataLoader.__init__
warnings.filterwarnings("ignore", "'set_vital' is deprecated", UserWarning)
dist.init_process_group("gloo")
rank = dist.get_rank()
attempt = int(os.environ["TORCHELASTIC_RESTART_COUNT"])


def log_event(event, step):
    if args.events:  # appended: every attempt of the run writes to the same file
        Path(args.events).mkdir(parents=True, exist_ok=True)
        with open(Path(args.events) / f"rank{rank}.jsonl", "a") as events:
            events.write(json.dumps({"attempt": attempt, "rank": rank, "event": event, "step": step}) + "\n")


class TrainingState(Stateful):
    """What a resumed run needs: model, optimizer, scheduler, the step reached, this rank's RNG (and loader)."""

    def __init__(self, model, optimizer, scheduler, loader):
        self.model, self.optimizer, self.scheduler, self.loader = model, optimizer, scheduler, loader
        self.step = 0

    def state_dict(self):
        model_state, optimizer_state = get_state_dict(self.model, self.optimizer)
        state = {"model": model_state, "optimizer": optimizer_state, "scheduler": self.scheduler.state_dict(),
                 "step": self.step, f"rng_rank{rank}": torch.get_rng_state()}
        if isinstance(self.loader, StatefulDataLoader):
            state[f"loader_rank{rank}"] = self.loader.state_dict()
        return state

    def load_state_dict(self, state):
        set_state_dict(self.model, self.optimizer, model_state_dict=state["model"],
                       optim_state_dict=state["optimizer"])
        self.scheduler.load_state_dict(state["scheduler"])
        self.step = state["step"]
        if not args.forget_rng_and_position:
            torch.set_rng_state(state[f"rng_rank{rank}"])
        if isinstance(self.loader, StatefulDataLoader):
            self.loader.load_state_dict(state[f"loader_rank{rank}"])


def latest_checkpoint():
    complete = [p for p in Path(args.checkpoints).glob("step_*") if (p / ".metadata").exists()]
    return max(complete, key=lambda p: int(p.name.removeprefix("step_")), default=None)  # step_10000 > step_9999


torch.manual_seed(0)
dataset = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))
sampler = DistributedSampler(dataset, shuffle=True, seed=0)
if args.stateful_loader_workers is None:
    loader = DataLoader(dataset, batch_size=8, sampler=sampler, generator=torch.Generator().manual_seed(0))
else:
    loader = StatefulDataLoader(dataset, batch_size=8, sampler=sampler, num_workers=args.stateful_loader_workers,
                                generator=torch.Generator().manual_seed(0))
model = DDP(nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 1)))
optimizer = torch.optim.AdamW(model.parameters(), lr=0.01)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.steps)
state = TrainingState(model, optimizer, scheduler, loader)
torch.manual_seed(100 + rank)

checkpoint = latest_checkpoint()
if checkpoint is None:
    print(f"attempt {attempt}: no checkpoint, starting at step 0")
    log_event("start", 0)
else:
    dcp.load({"training": state}, checkpoint_id=checkpoint)
    lr = scheduler.get_last_lr()[0]
    print(f"attempt {attempt}: loaded {checkpoint.name}, resuming at step {state.step}, lr {lr:.6f}")
    log_event("load", state.step)

while state.step < args.steps:
    # from the step on every pass: a StatefulDataLoader saved after an epoch's last batch first yields nothing
    epoch, seen = divmod(state.step, len(loader))
    sampler.set_epoch(epoch)
    if args.forget_rng_and_position or isinstance(loader, StatefulDataLoader):
        seen = 0  # a StatefulDataLoader continues where its loaded state stopped
    for i, (x, y) in enumerate(loader):
        if i < seen:
            continue
        if state.step == args.crash_before_step and attempt == 0 and rank == 1:
            log_event("crash", state.step)
            raise RuntimeError(f"simulated crash before step {state.step}")
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        log_event("step", state.step)
        state.step += 1
        if state.step % args.checkpoint_every == 0:
            dcp.save({"training": state}, checkpoint_id=Path(args.checkpoints) / f"step_{state.step:04d}")
            log_event("save", state.step)
        if state.step == args.steps:
            break

losses = [torch.zeros(1) for _ in range(dist.get_world_size())]
dist.all_gather(losses, loss.detach().reshape(1))
print(f"finished step {state.step}: loss {loss.item():.6f}")
if args.save_final and rank == 0:
    torch.save({"parameters": model.module.state_dict(), "losses": torch.cat(losses)}, args.save_final)

del model, optimizer, scheduler, state, loss, losses, x, y
gc.collect()
dist.barrier()
dist.destroy_process_group()
