import torch

E4M3 = torch.float8_e4m3fn
E4M3_MAX = torch.finfo(E4M3).max

torch.manual_seed(0)
x = torch.randn(4, 1024)
x[1] *= 1000.0  # a row of large activations
x[3] *= 0.001   # a row of small ones


def to_float8(x, scale):
    return (x * scale).clamp(-E4M3_MAX, E4M3_MAX).to(E4M3)


def from_float8(x_fp8, scale):
    return x_fp8.float() / scale


scales = {
    "no scale": torch.tensor(1.0),
    "tensorwise": E4M3_MAX / x.abs().max(),
    "rowwise": E4M3_MAX / x.abs().amax(dim=1, keepdim=True),
}
print("row amax:", [f"{a:.3g}" for a in x.abs().amax(dim=1).tolist()])
for name, scale in scales.items():
    restored = from_float8(to_float8(x, scale), scale)
    error = (restored - x).norm(dim=1) / x.norm(dim=1)
    zeros = (restored == 0).float().mean(dim=1)
    print(f"{name:<10} scale shape {tuple(scale.shape)!s:<8} relative error per row "
          f"{[f'{e:.3f}' for e in error.tolist()]}  zeros per row {[f'{z:.0%}' for z in zeros.tolist()]}")
