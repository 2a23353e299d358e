"""What the search index tests share: a language with glossary terms each, and the indexed text of a document."""

from __future__ import annotations

import re

from docsys.build.search.languages import Language

EN = Language("en", ("gradient accumulation", "mixed precision"))
ZH = Language("zh", ("分布式数据并行", "梯度检查"))


def indexed_text(document: str) -> str:
    """The indexed body's text, tags dropped (as Pagefind joins inline elements)."""
    return re.sub(r"<[^>]+>", "", document.split("<body data-pagefind-body>", 1)[1])
