"""A fork server for snippet runs: import torch once, then run each snippet in a forked child.

Importing torch takes over a second; a test run starts ~90 snippets. The child does what
`python <snippet>` does: a new `__main__` module from the file, `sys.argv == [path]`,
`sys.path[0]` the snippet's folder, stdout and stderr into one file, the interpreter's exit
rules (SystemExit, uncaught exceptions printed as tracebacks, atexit handlers, non-daemon
threads joined). tests/tooling/test_runner.py compares the two ways on snippets that print,
warn, log and raise; every test run compares them again on every snippet, because the
recordings it checks against are made with plain `python` (docsys.core.verdict).

A launcher that is a Python script runs the same way: for `torchrun ... <snippet>` the child runs
the torchrun script with that argv (the ranks it starts are fresh interpreters, as always).

Protocol (JSON lines): request {"argv", "cwd", "output", "env"} on stdin (argv: what follows
`python` on its command line); replies on stdout {"pid"} once the child exists, then
{"pid", "status", "cpu"} when it has ended.
Self-contained: started with this folder on PYTHONPATH, where docsys is not importable.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import importlib.machinery
import json
import os
import sys
import threading
import traceback
import types


def _exit_code(error: SystemExit) -> int:
    code = error.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def run_as_main(argv: list[str]) -> int:
    """Run a file as `python <argv>` runs it (argv[0] is the file); return its exit status."""
    path = argv[0]
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    main.__spec__ = None
    main.__cached__ = None
    sys.modules["__main__"] = main
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(path)
    try:
        with open(path, encoding="utf-8") as source:
            code = compile(source.read(), path, "exec")
        exec(code, main.__dict__)  # noqa: S102
    except SystemExit as error:
        return _exit_code(error)
    except BaseException as error:  # what the interpreter prints for an uncaught exception
        traceback.print_exception(type(error), error, error.__traceback__.tb_next)
        return 1
    return 0


def _finish(code: int) -> None:
    """The interpreter's shutdown, in its order: threads, atexit handlers, flushed streams."""
    try:
        threading._shutdown()
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


def _child(request: dict) -> None:
    os.setsid()  # the run's processes are its session: the client kills them by it
    os.chdir(request["cwd"])
    out = os.open(request["output"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(out, 2)
    os.close(out)
    os.close(null)
    os.environ.update(request["env"])
    import sitecustomize  # the probe, loaded at start-up from this folder

    sitecustomize.default_threads()
    sitecustomize.install(request["env"])
    code = 1
    try:
        code = run_as_main(request["argv"])
    finally:
        _finish(code)


def _reply(message: dict) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


def serve() -> None:
    for module in os.environ.get("DOCSYS_ZYGOTE_PRELOAD", "torch").split():
        __import__(module)
    _reply({"ready": True})
    for line in sys.stdin.buffer:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request)
        _reply({"pid": pid})
        _, status, usage = os.wait4(pid, 0)
        _reply({"pid": pid, "status": status, "cpu": usage.ru_utime + usage.ru_stime})


if __name__ == "__main__":
    serve()
