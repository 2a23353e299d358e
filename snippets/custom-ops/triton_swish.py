# marks: cuda
# estimate: 90
# timeout: 300
import torch
import triton
import triton.language as tl
from torch import Tensor
from torch.library import triton_op, wrap_triton


@triton.jit
def swish_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * tl.sigmoid(x), mask=mask)


@triton_op("mylib::swish", mutates_args=())
def swish(x: Tensor) -> Tensor:
    x = x.contiguous()  # the kernel reads x_ptr + offsets: it assumes a dense, contiguous x
    out = torch.empty_like(x)
    n = x.numel()
    wrap_triton(swish_kernel)[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
    return out


def setup_context(ctx, inputs, output):
    ctx.save_for_backward(inputs[0])


def backward(ctx, grad):
    (x,) = ctx.saved_tensors
    s = torch.sigmoid(x)
    return grad * s * (1 + x * (1 - s))


swish.register_autograd(backward, setup_context=setup_context)


def scaled_swish(x):
    return swish(x) * 2


torch.manual_seed(0)
x = torch.randn(4096, device="cuda", requires_grad=True)
expected = torch.nn.functional.silu(x) * 2
print("eager == 2·silu:", torch.allclose(scaled_swish(x), expected, atol=1e-6))
strided = x.detach()[::2]
print("strided input == 2·silu:", torch.allclose(scaled_swish(strided), expected.detach()[::2], atol=1e-6))

explanation = torch._dynamo.explain(scaled_swish)(x)
print("graphs:", explanation.graph_count, "| graph breaks:", explanation.graph_break_count)
torch._dynamo.reset()

compiled = torch.compile(scaled_swish, fullgraph=True)
result, (code, *_) = torch._inductor.utils.run_and_get_code(compiled, x)
print("compiled == 2·silu:", torch.allclose(result, expected, atol=1e-6))
launches, calls = "swish_kernel" in code, "torch.ops.mylib.swish" in code
print("Inductor's code launches swish_kernel:", launches, "| calls torch.ops.mylib.swish:", calls)
compiled(x).sum().backward()
reference = x.detach().clone().requires_grad_()
(torch.nn.functional.silu(reference) * 2).sum().backward()
print("gradient == silu's:", torch.allclose(x.grad, reference.grad, atol=1e-6))
torch._dynamo.reset()


class ScaledSwish(torch.nn.Module):
    def forward(self, x):
        return scaled_swish(x)


program = torch.export.export(ScaledSwish(), (x.detach(),))
print("exported:", [str(node.target) for node in program.graph.nodes if node.op == "call_function"])
for name, result in torch.library.opcheck(swish, (x.detach().requires_grad_(),)).items():
    print(f"opcheck {name}: {result}")
