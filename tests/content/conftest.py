"""Fixtures of the tests on the real site."""

from __future__ import annotations

import pytest

from docsys.checks import downloads


@pytest.fixture(scope="module")
def gzip_site(built_site):
    """The real site served with gzip, as a static host serves it (transfer sizes, contrast)."""
    assert built_site.returncode == 0, "the site did not build: see test_strict_build_passes_without_warnings"
    with downloads.serve_gzip(built_site.path) as base:
        yield base
