"""docsys/build/files.py: the hooks' cache files are replaced whole or not at all."""

from __future__ import annotations

import os

import pytest

from docsys.build import files


def test_text_and_bytes_land_whole_in_a_new_folder(tmp_path):
    text_file, bytes_file = tmp_path / "a" / "cache.json", tmp_path / "b" / "figure.svg"
    files.write_atomically(text_file, '{"张量": 1}')
    files.write_atomically(bytes_file, b"<svg/>")
    assert text_file.read_text(encoding="utf-8") == '{"张量": 1}' and bytes_file.read_bytes() == b"<svg/>"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["cache.json", "figure.svg"]


def test_a_write_that_fails_before_the_rename_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "cache.json"
    files.write_atomically(target, "old")

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        files.write_atomically(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["cache.json"], "the temporary file was left behind"
