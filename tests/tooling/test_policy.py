"""docsys.core.policy: a deprecation in an example fails unless its header declares it, with a reason."""

from __future__ import annotations

from docsys.core.policy import problems
from docsys.core.snippet import load


def _snippet(tmp_path, header=""):
    path = tmp_path / "x.py"
    path.write_text(header + "print(1)\n", encoding="utf-8")
    return load(path, tmp_path)


def _warning(category, message):
    return {"category": category, "message": message, "filename": "x.py", "pid": 1}


def test_each_kind_of_deprecation_is_caught(tmp_path):
    s = _snippet(tmp_path)
    for warning in (_warning("FutureWarning", "x"), _warning("DeprecationWarning", "y"),
                    _warning("UserWarning", "Starting in PyTorch 2.9, calling checkpoint without it will raise")):
        assert len(problems(s, (warning,))) == 1, warning


def test_ordinary_user_warnings_pass(tmp_path):
    assert problems(_snippet(tmp_path), (_warning("UserWarning", "CUDA is not available"),)) == []


def test_a_declared_deprecation_passes_and_an_unused_declaration_fails(tmp_path):
    s = _snippet(tmp_path, "# warns: FutureWarning: torch.cuda.amp -- the page shows the deprecation\n")
    assert problems(s, (_warning("FutureWarning", "`torch.cuda.amp.autocast` is deprecated"),)) == []
    assert "raised no such warning" in problems(s, ())[0]
