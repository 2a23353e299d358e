"""docsys.translations.records: section hashes, and the record a zh page keeps in its front matter."""

from __future__ import annotations

from docsys.translations.records import (
    Record,
    changed_sections,
    record_of,
    render_record,
    section_hashes,
    with_record,
    without_record,
)

PAGE = """---
description: A page.
---

# Title { #title }

Intro.

## First { #first }

One.

```python
# Not a heading { #nope }
```

### Inner { #inner }

Two.
"""


def test_each_anchored_section_has_its_own_hash_and_fences_do_not_cut():
    hashes = section_hashes(PAGE)
    assert list(hashes) == ["title", "first", "inner"]
    edited = section_hashes(PAGE.replace("One.", "One!"))
    assert [anchor for anchor in hashes if edited[anchor] != hashes[anchor]] == ["first"]


def test_the_front_matter_belongs_to_the_first_section_and_the_record_does_not():
    hashes = section_hashes(PAGE)
    assert section_hashes(PAGE.replace("A page.", "Another page."))["title"] != hashes["title"]
    recorded = with_record(PAGE, render_record(hashes, hashes))
    assert section_hashes(recorded) == hashes
    assert section_hashes(PAGE.replace("Two.", "Two.   \n\n")) == hashes  # trailing blanks are not a change


def test_a_record_round_trips_through_the_front_matter():
    import yaml

    hashes = section_hashes(PAGE)
    text = with_record(with_record(PAGE, render_record(hashes, {"title": "x"}, pending=True)),
                       render_record(hashes, {"title": "y"}))  # replaced, not appended twice
    front = text.split("---\n")[1]
    assert front.count("translation:") == 1 and "description: A page." in front
    record = record_of(yaml.safe_load(front))
    assert record == Record(hashes, {"title": "y", "first": "-", "inner": "-"}, pending=False)
    assert record_of({"description": "no record"}) is None


def test_changed_sections_are_the_edited_the_new_and_the_removed_ones():
    old = section_hashes(PAGE)
    new = {"title": old["title"], "first": "0" * 10, "added": "1" * 10}
    assert changed_sections(new, Record(old)) == ["first", "added", "inner"]


def test_only_the_record_block_leaves_the_front_matter():
    front = ["description: x", "translation:", "  sections:", "    a: {en: 1, zh: 2}", "  pending: true", "tags: [y]"]
    assert without_record(front) == ["description: x", "tags: [y]"]
