"""Where things live. Every script and test takes its paths from here."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS_DIR = ROOT / "docs"
SNIPPETS_DIR = ROOT / "snippets"
MKDOCS_YML = ROOT / "mkdocs.yml"
LANGS = ("en", "zh")
DEFAULT_LANG = "en"
OUTPUT_SUFFIX = ".out"
ARTIFACTS_DIR = ROOT / "test-artifacts"  # git-ignored: what a test run leaves for a person (screenshots)


def lang_dir(lang: str) -> Path:
    return DOCS_DIR / lang


def page_lang(src_uri: str, fallback: str = DEFAULT_LANG) -> str:
    """`zh` for `zh/devices.md`: a page's language is its top folder (docs_structure: folder)."""
    first = src_uri.split("/", 1)[0]
    return first if first in LANGS else fallback


def page_paths(lang: str) -> list[Path]:
    """All Markdown pages of one language, sorted, as absolute paths."""
    return sorted(lang_dir(lang).rglob("*.md"))
