"""Watches a snippet run without changing what it prints (loaded through PYTHONPATH).

Self-contained on purpose: the snippet runs in a temporary folder where docsys is not importable.
Configured by environment variables, each optional:

- DOCSYS_PROBE_WARNINGS=<file>: every warning that passes the warning filters — shown on stderr,
  or caught by the snippet itself — is appended to <file> as one JSON line. This is how the
  warnings policy (docsys.core.policy) sees a deprecation that a snippet catches and prints.
- DOCSYS_PROBE_GRAPHS="<var> ..." and DOCSYS_PROBE_GRAPHS_OUT=<file>: at exit, the DOT source
  of each named module-level variable of `__main__` is written to <file> as JSON.
- DOCSYS_PROBE_FIGURES="<var> ..." and DOCSYS_PROBE_FIGURES_OUT=<file>: at exit, the value of
  each named module-level variable of `__main__` (a figure's data: JSON numbers, strings, lists,
  dicts) is written to <file> as JSON, `{"<var>": {"data": ...}}`, or `{"error": "..."}` for a
  variable that is missing or not JSON. With DOCSYS_PROBE_RANK0=1 (a torchrun launch, where the
  launcher and every rank run this probe) only the process with RANK=0 writes: a launched
  snippet gathers its ranks' data on rank 0.
- DOCSYS_PROBE_FACTS=<file>: at exit, if the program imported torch, the machine facts an output
  may depend on (docsys.core.snippet.DEPENDENCES) as torch saw them: its intra-op thread count
  and CPU capability (rank 0 only under DOCSYS_PROBE_RANK0, as for figures).
- DOCSYS_TORCH_THREADS=<n>: torch's default intra-op thread count becomes n, as on a machine with
  n cores (torch.set_num_threads right after torch is imported; `OMP_NUM_THREADS` above the core
  count is capped at the core count, so it cannot stand in for a larger machine). Where
  OMP_NUM_THREADS is set — by the reader, or by torchrun for its ranks — it decides, as it does
  on any machine. `make test-portable` runs the examples this way (Makefile).

Any sitecustomize that this one shadows on sys.path is still run.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import os
import sys
import warnings

_HERE = os.path.dirname(os.path.abspath(__file__))


def _append(path: str, record: dict) -> None:
    with open(path, "a", encoding="utf-8") as log:
        log.write(json.dumps(record) + "\n")


def watch_warnings(path: str) -> None:
    """Wrap warnings._showwarnmsg: the filters have already let the warning through by then,
    and catch_warnings(record=True) replaces only the implementation it dispatches to."""
    show = warnings._showwarnmsg

    def logged(message: warnings.WarningMessage) -> None:
        with contextlib.suppress(OSError):
            _append(
                path,
                {
                    "category": message.category.__name__,
                    "message": str(message.message),
                    "filename": str(message.filename),
                    "pid": os.getpid(),
                },
            )
        show(message)

    warnings._showwarnmsg = logged


def dump_graphs(names: list[str], path: str) -> None:
    main = sys.modules.get("__main__")
    namespace = vars(main) if main is not None else {}
    sources = {}
    for name in names:
        value = namespace.get(name)
        source = getattr(value, "source", None)
        if isinstance(source, str):
            sources[name] = source
        else:
            sources[name] = {"error": f"{name!r} is {type(value).__name__}, not a graphviz.Digraph"}
    with open(path, "w", encoding="utf-8") as out:
        json.dump(sources, out)


def figure_data(namespace: dict, name: str) -> dict:
    if name not in namespace:
        return {"error": f"no module-level variable {name!r} at exit"}
    try:
        json.dumps(namespace[name], allow_nan=False)
    except (TypeError, ValueError) as error:
        return {"error": f"{name!r} is not JSON data (numbers, strings, lists, dicts): {error}"}
    return {"data": namespace[name]}


def dump_figures(names: list[str], path: str) -> None:
    if os.environ.get("DOCSYS_PROBE_RANK0") and os.environ.get("RANK") != "0":
        return
    main = sys.modules.get("__main__")
    namespace = vars(main) if main is not None else {}
    with open(path, "w", encoding="utf-8") as out:
        json.dump({name: figure_data(namespace, name) for name in names}, out, allow_nan=False)


class _AfterTorchImport:
    """A meta path finder that lets torch import normally, then sets its thread count."""

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.loader is None:
            return spec
        exec_module, threads = spec.loader.exec_module, self.threads

        def exec_then_set_threads(module) -> None:
            exec_module(module)
            module.set_num_threads(threads)

        spec.loader.exec_module = exec_then_set_threads
        return spec


def default_threads(environ: os._Environ | dict = os.environ) -> None:
    """DOCSYS_TORCH_THREADS (module docstring): now if torch is imported (a fork server's child), else
    when it is."""
    threads = environ.get("DOCSYS_TORCH_THREADS")
    if not threads or environ.get("OMP_NUM_THREADS"):
        return
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(int(threads))
    else:
        sys.meta_path.insert(0, _AfterTorchImport(int(threads)))


def dump_facts(path: str) -> None:
    torch = sys.modules.get("torch")
    if torch is None or (os.environ.get("DOCSYS_PROBE_RANK0") and os.environ.get("RANK") != "0"):
        return
    with open(path, "w", encoding="utf-8") as out:
        json.dump({"threads": torch.get_num_threads(), "cpu_capability": torch.backends.cpu.get_cpu_capability()},
                  out)


def install(environ: os._Environ | dict = os.environ) -> None:
    if environ.get("DOCSYS_PROBE_WARNINGS"):
        watch_warnings(environ["DOCSYS_PROBE_WARNINGS"])
    if environ.get("DOCSYS_PROBE_GRAPHS") and environ.get("DOCSYS_PROBE_GRAPHS_OUT"):
        names, out = environ["DOCSYS_PROBE_GRAPHS"].split(), environ["DOCSYS_PROBE_GRAPHS_OUT"]
        atexit.register(dump_graphs, names, out)
    if environ.get("DOCSYS_PROBE_FIGURES") and environ.get("DOCSYS_PROBE_FIGURES_OUT"):
        names, out = environ["DOCSYS_PROBE_FIGURES"].split(), environ["DOCSYS_PROBE_FIGURES_OUT"]
        atexit.register(dump_figures, names, out)
    if environ.get("DOCSYS_PROBE_FACTS"):
        atexit.register(dump_facts, environ["DOCSYS_PROBE_FACTS"])


def _run_shadowed_sitecustomize() -> None:
    others = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    spec = None
    for entry in others:
        candidate = os.path.join(entry or ".", "sitecustomize.py")
        if os.path.isfile(candidate):
            spec = importlib.util.spec_from_file_location("_shadowed_sitecustomize", candidate)
            break
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


if __name__ == "sitecustomize":
    default_threads()
    install()
    _run_shadowed_sitecustomize()
