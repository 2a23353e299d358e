import torch


def counting_backend(graph_module, example_inputs):
    shapes = [tuple(x.shape) for x in example_inputs if isinstance(x, torch.Tensor)]
    dynamic = len(shapes) < len(example_inputs)
    print("  compiling a", "dynamic graph (symbolic length)" if dynamic else f"graph for shape {shapes[0]}")

    def run(*args):
        print("  running the compiled graph")
        return graph_module.forward(*args)

    return run


@torch.compile(backend=counting_backend)
def scale(x):
    return x * 2 + 1


def call(stance, length):
    print(f"{stance}, length {length}:")
    with torch.compiler.set_stance(stance):
        scale(torch.ones(length))


call("default", 4)
call("force_eager", 8)
call("eager_on_recompile", 8)
call("eager_on_recompile", 4)
try:
    call("fail_on_recompile", 8)
except RuntimeError as error:
    print("  RuntimeError:", str(error).split(". ")[0])
call("default", 8)
