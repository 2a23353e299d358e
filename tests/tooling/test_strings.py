"""docsys.build.strings: every word the build writes exists in every language, with the same placeholders."""

import re

from docsys.build.strings import languages, strings


def test_every_string_exists_in_every_language_with_the_same_placeholders():
    en = strings("en")
    for lang in languages():
        other = strings(lang)
        assert set(other) == set(en), f"{lang}: keys differ: {sorted(set(other) ^ set(en))}"
        for key, text in en.items():
            assert set(re.findall(r"\{(\w+)\}", other[key])) == set(re.findall(r"\{(\w+)\}", text)), (lang, key)


def test_an_unknown_language_falls_back_to_english():
    assert strings("fr") == strings("en")
