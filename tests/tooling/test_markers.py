"""docsys.core.markers: each marker skips exactly where its condition is missing, saying why."""

from docsys.core import markers


def test_markers_skip_exactly_where_their_condition_is_missing(monkeypatch):
    monkeypatch.setattr(markers, "_cuda_device_count", lambda: 1)
    assert markers.skip_reason(["cpu_only"]).startswith("cpu_only: its recorded output shows the fallback")
    assert markers.skip_reason(["cuda"]) is None
    assert markers.skip_reason(["multi_gpu"]).startswith("multi_gpu: needs 2+ CUDA GPUs, found 1")
    monkeypatch.setattr(markers, "_cuda_device_count", lambda: 0)
    assert markers.skip_reason(["cpu_only"]) is None
    assert markers.skip_reason(["cuda"]).startswith("cuda: needs a CUDA GPU")
    monkeypatch.setenv("SKIP_SLOW", "1")
    assert markers.skip_reason(["slow"]).startswith("slow: skipped because SKIP_SLOW=1")


def test_torchao_marker_skips_where_torchao_is_not_installed(monkeypatch):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    assert markers.skip_reason(["torchao"]) is None  # requirements.txt pins it
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "torchao" else real_find_spec(name))
    assert markers.skip_reason(["torchao"]).startswith("torchao: needs torchao (pinned in requirements.txt")


def test_linux_glibc_marker_skips_on_other_systems(monkeypatch):
    import platform
    import sys

    assert markers.skip_reason(["linux_glibc"]) is None  # the development machines run Debian
    monkeypatch.setattr(platform, "libc_ver", lambda: ("", ""))  # musl
    assert markers.skip_reason(["linux_glibc"]).startswith("linux_glibc: needs Linux with glibc")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert markers.skip_reason(["linux_glibc"]).startswith("linux_glibc: needs Linux with glibc")
