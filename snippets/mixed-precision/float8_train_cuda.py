# marks: cuda torchao
# estimate: 15
# Needs torchao and a CUDA GPU of compute capability 8.9 or newer (Ada, Hopper, Blackwell).
import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile
from torchao.float8 import Float8LinearConfig, convert_to_float8_training

print("compute capability >= (8, 9):", torch.cuda.get_device_capability() >= (8, 9))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4096, 8192), nn.GELU(), nn.Linear(8192, 4096)).to("cuda", torch.bfloat16)
x = torch.randn(8192, 4096, device="cuda", dtype=torch.bfloat16)
with torch.no_grad():
    reference = model(x).float()

convert_to_float8_training(model, config=Float8LinearConfig.from_recipe_name("tensorwise"))
print("layers:", [type(layer).__name__ for layer in model])

with profile(activities=[ProfilerActivity.CPU]) as prof:
    output = model(x)
    output.float().pow(2).mean().backward()
calls = sum(event.count for event in prof.key_averages() if event.key == "aten::_scaled_mm")
error = ((output.float() - reference).norm() / reference.norm()).item()
print("aten::_scaled_mm calls in one forward + backward:", calls)
print("output dtype:", output.dtype, "| relative error vs bfloat16 below 0.1:", error < 0.1)

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
losses = []
for _ in range(3):
    optimizer.zero_grad(set_to_none=True)
    loss = model(x).float().pow(2).mean()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
print("3 steps, losses finite:", all(torch.isfinite(torch.tensor(losses))), "| weight dtype:", model[0].weight.dtype)
