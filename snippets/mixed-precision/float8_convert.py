# marks: torchao
# timeout: 120
import copy
import logging

# On a torch without CUDA, torchao logs that its CUDA kernels cannot load; they are not used here.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.profiler import profile  # noqa: E402
from torchao.float8 import Float8LinearConfig, convert_to_float8_training  # noqa: E402

torch.manual_seed(0)
model = nn.Sequential()
model.add_module("up", nn.Linear(1024, 4096))
model.add_module("act", nn.GELU())
model.add_module("down", nn.Linear(4096, 1024))
model.add_module("small", nn.Linear(1024, 64))
model.add_module("head", nn.Linear(64, 10))


def worth_float8(module, fqn):
    if fqn == "head":
        return False  # keep the output layer in high precision
    return module.in_features % 16 == 0 and module.out_features % 16 == 0 and module.out_features >= 1024


def describe(model):
    return ", ".join(f"{name}: {type(module).__name__}" for name, module in model.named_children())


print("before:   ", describe(model))
recipes = {"tensorwise": Float8LinearConfig.from_recipe_name("tensorwise"),
           "rowwise": Float8LinearConfig.from_recipe_name("rowwise")}
converted = {}
for recipe, config in recipes.items():
    converted[recipe] = convert_to_float8_training(copy.deepcopy(model), module_filter_fn=worth_float8,
                                                   config=config)
print("converted:", describe(converted["tensorwise"]))
for recipe, float8_model in converted.items():
    config = float8_model.up.config
    casts = {"input": config.cast_config_input, "weight": config.cast_config_weight,
             "grad_output": config.cast_config_grad_output}
    print(f"{recipe:<10}", ", ".join(f"{role} {cast.short_str()}" for role, cast in casts.items()),
          f"| power-of-2 scales {config.round_scales_to_power_of_2} | weight stays {float8_model.up.weight.dtype}")
    fast = [gemm for gemm in ("output", "grad_input", "grad_weight")
            if getattr(config, f"gemm_config_{gemm}").use_fast_accum]
    print(f"{recipe:<10} pad_inner_dim {config.pad_inner_dim} | fast accumulation in {fast} | "
          f"float8 all-gather for FSDP2 {config.enable_fsdp_float8_all_gather}")

x = torch.randn(64, 1024)
reference = model(x)
for recipe, float8_model in converted.items():
    with profile() as prof:
        output = float8_model(x)
        output.sum().backward()
    counts = {event.key: event.count for event in prof.key_averages()}
    amaxes = counts.get("aten::max", 0) + counts.get("aten::amax", 0)
    error = ((output - reference).norm() / reference.norm()).item()
    print(f"{recipe:<10} one forward + backward: {counts['aten::_scaled_mm']} aten::_scaled_mm calls, "
          f"{amaxes} amax reductions, output {output.dtype}, relative error vs float32 {error:.3f}")

saved = []
with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t.dtype) or t, lambda t: t):
    converted["tensorwise"](x)
float8_saved = sum(dtype in (torch.float8_e4m3fn, torch.float8_e5m2) for dtype in saved)
print("tensorwise tensors saved for backward:", len(saved), "| float8 among them:", float8_saved,
      "| dtypes:", sorted(set(map(str, saved))))
