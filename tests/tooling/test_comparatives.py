"""docsys.checks.comparatives: an unbound comparison is found; a token or a general marker binds it."""

from __future__ import annotations

import pytest

from docsys.checks.comparatives import check_text
from docsys.checks.prose import paragraphs

PAGE = """---
description: faster training (front matter is not prose)
---

# Faster pages { #faster }

The compiled model ran {{ ratio: k/bench_x, "a" < "b", "t (ms)" }} the time of eager.

Pinned memory makes copies faster. <!-- general: CUDA docs, https://pytorch.org/docs/stable/notes/cuda.html -->

```python
print("2× faster in code is not prose")
```

A shape of `3×224×224` and 3×224×224 images are not multipliers.

See [Saving and loading](saving-loading.md#mmap) and the memory-saving page: names, not comparisons.

The loading process compiled as often as the saving one, and as the saving process.
"""


def test_bound_marked_and_non_prose_comparisons_pass():
    assert check_text(PAGE, "en/x.md") == []


@pytest.mark.parametrize(("planted", "words"), [
    ("Checkpointing made each step 30% slower.", ("30%", "slower")),
    ("It saves memory: about 7.7× less.", ("saves memory", "7.7×")),
    ("编译后的模型快了 2.7 倍。", ("快了", "7 倍")),
    ("<!-- general: -->\nIt is faster.", ("faster",)),
    ("The saving is worth it.", ("saving",)),
])
def test_an_unbound_comparison_is_reported_with_its_words(planted, words):
    (finding,) = check_text(PAGE + "\n" + planted + "\n", "en/x.md")
    assert finding.words == words and finding.page == "en/x.md"
    assert finding.line == len(PAGE.split("\n")) + 1


def test_paragraphs_are_blank_line_blocks_without_fences_or_headings():
    assert [line for line, _ in paragraphs(PAGE)] == [7, 9, 15, 17, 19]
