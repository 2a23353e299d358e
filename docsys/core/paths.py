"""Where things live, for the command line and the tests. Build hooks take theirs from the
MkDocs config they are given instead (see docsys.build)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS_DIR = ROOT / "docs"
SNIPPETS_DIR = ROOT / "snippets"
NOTEBOOKS_DIR = ROOT / "notebooks"
MKDOCS_YML = ROOT / "mkdocs.yml"
LANGS = ("en", "zh")
DEFAULT_LANG = "en"
ARTIFACTS_DIR = ROOT / "test-artifacts"  # git-ignored: what a test run leaves for a person (screenshots)


def lang_dir(lang: str, docs_dir: Path = DOCS_DIR) -> Path:
    return docs_dir / lang


def lang_root(lang: str) -> str:
    """Where a language's pages sit in the built site, as a URL prefix: "" or "zh/"."""
    return "" if lang == DEFAULT_LANG else f"{lang}/"


def page_lang(src_uri: str, fallback: str = DEFAULT_LANG) -> str:
    """`zh` for `zh/devices.md`: a page's language is its top folder (docs_structure: folder)."""
    first = src_uri.split("/", 1)[0]
    return first if first in LANGS else fallback


def page_paths(lang: str, docs_dir: Path = DOCS_DIR) -> list[Path]:
    """All Markdown pages of one language, sorted, as absolute paths."""
    return sorted(lang_dir(lang, docs_dir).rglob("*.md"))
