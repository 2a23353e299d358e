"""docsys/build/serve.py: under `mkdocs serve` an edited snippet shows with a notice and the server keeps
serving; a strict build still fails on the same stale recording (docsys.build.examples, claims)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from docsys.checks.site import warnings_of
from tests.tooling.site_fixture import build_copy

NOTICE = "Recorded for an earlier version of this code"


@pytest.fixture
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 (a local server)
            return response.read().decode("utf-8")
    except OSError:
        return ""


def _served_until(url: str, text: str, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in (page := _get(url)):
            return page
        time.sleep(0.1)
    raise AssertionError(f"{url} never showed {text!r} within {seconds:g} s; last page: {_get(url)[:500]!r}")


def test_a_stale_recording_is_a_notice_under_serve_and_a_failure_in_a_strict_build(fixture_copy, free_port):
    snippet = fixture_copy / "snippets" / "demo" / "hello.py"
    snippet.write_text(snippet.read_text() + "# an author's edit\n")
    mkdocs = str(Path(sys.executable).with_name("mkdocs"))
    server = subprocess.Popen([mkdocs, "serve", "--dev-addr", f"127.0.0.1:{free_port}", "-f",
                               "mkdocs.yml"], cwd=fixture_copy, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        page = _served_until(f"http://127.0.0.1:{free_port}/demo/", NOTICE)
        assert "an author&#39;s edit" in page or "an author's edit" in page, "the edited code is what is served"
        assert "make record SNIPPETS=demo/hello.py" in page and "from the middle" in page
        assert NOTICE not in _get(f"http://127.0.0.1:{free_port}/"), "only the page that shows it"
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0].decode()
    assert "recording is stale" in log and "WARNING" not in log.split("Serving on")[-1], log[-2000:]
    assert any("demo/hello.py: recording is stale" in w for w in warnings_of(build_copy(fixture_copy)))
