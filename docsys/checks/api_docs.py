"""The pages' "Official documentation" lists agree with the symbol map (docsys/core/api_links.toml),
and every URL in the map comes from a page or from the generated-page pattern.

- A link in a page's `{ #api-docs }` section that targets an API reference page must be the map's URL
  for its symbol, and the symbol must be in the map. A link targets a symbol's page when its URL is
  `generated/<name>.html` or has a `#torch.…` fragment (the symbol is that name), or when its text is
  one code span naming a mapped spelling or a `torch.…` name (`[`torch.autograd`](…/autograd.html)`).
  A code span in the section that names a `torch.…` name must be mapped too.
- A map URL is sourced when some page links it, or when it is `generated/<full.name>.html` (or a
  method's `generated/<Class>.html#<full.name>`) in a namespace whose generated pages the pages link.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from docsys.core import api_links
from docsys.core.paths import DOCS_DIR, LANGS
from docsys.core.text import section_text

ANCHOR = "api-docs"
LINK_RE = re.compile(r"\[((?:[^\[\]`]|`[^`]*`)*)\]\((https?://[^)\s]+)\)")
CODE_RE = re.compile(r"`([^`]+)`")
ONE_CODE_SPAN_RE = re.compile(r"`([^`]+)`(?:\s*[（(][^()（）]*[)）])?")  # `torch.distributed.tensor` (DTensor)
REFERENCE_RE = re.compile(r"^https://(?:docs\.)?pytorch\.org/docs/[^/]+/")
# Namespaces whose pages PyTorch's docs generate as generated/<full.name>.html (the pages link such pages for each).
PATTERN_NAMESPACES = (
    "torch",
    "torch.Tensor",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.utils",
    "torch.cuda",
    "torch.optim",
    "torch.compiler",
    "torch.jit",
    "torch.linalg",
    "torch.func",
)


def symbol_of_url(url: str) -> str | None:
    """The symbol whose reference `url` is, where the URL itself says (a generated page, a #torch.… fragment)."""
    parts = urlsplit(url)
    if parts.fragment.startswith("torch."):
        return parts.fragment
    page = parts.path.rsplit("/", 2)
    if len(page) == 3 and page[1] == "generated" and not parts.fragment:
        return page[2].removesuffix(".html").removesuffix(api_links.CLASS_PAGE_SUFFIX)
    return None


def symbol_of_text(text: str, spellings: dict[str, api_links.Symbol]) -> str | None:
    """The symbol a link's text names: one code span, a mapped spelling or a `torch.…` name."""
    match = ONE_CODE_SPAN_RE.fullmatch(text.strip())
    name = match.group(1).removesuffix("()") if match else ""
    if name in spellings:
        return spellings[name].name
    return name if name.startswith("torch.") else None


def _link_problems(where: str, text: str, url: str, api_map: api_links.ApiMap) -> list[str]:
    spellings, map_name = api_map.lookup(), api_map.path.name
    by_url, by_text = symbol_of_url(url), symbol_of_text(text, spellings)
    if by_url and by_text and by_url != by_text:
        return [f"{where}: [{text}] names {by_text} but links {url}, the page of {by_url}"]
    name = by_url or by_text
    if name is None:
        return []
    symbol = api_map.symbols.get(name) or spellings.get(name)
    if symbol is None:
        return [f"{where}: links {name} ({url}), which {map_name} does not map: add it there"]
    if url != symbol.url:
        return [f"{where}: links {name} to {url}, but {map_name} has {symbol.url}: link the map's URL"]
    return []


def official_docs_problems(page: Path, api_map: api_links.ApiMap, label: str = "") -> list[str]:
    """One line per link of the page's Official documentation list that disagrees with the map."""
    section = section_text(page.read_text(encoding="utf-8"), ANCHOR)
    if section is None:
        return []
    where, spellings, problems = f"{label or page.name} (Official documentation)", api_map.lookup(), []
    for text, url in LINK_RE.findall(section):
        if REFERENCE_RE.match(url):
            problems += _link_problems(where, text, url, api_map)
    reported = " ".join(problems) + " "
    for name in sorted({span.removesuffix("()") for span in CODE_RE.findall(section)}):
        if name.startswith("torch.") and name not in spellings and f" {name} " not in reported:
            problems.append(f"{where}: names {name}, which {api_map.path.name} does not map: add it there")
    return problems


def all_official_docs_problems(api_map: api_links.ApiMap, docs_dir: Path = DOCS_DIR) -> list[str]:
    return [
        problem
        for lang in LANGS
        for page in sorted((docs_dir / lang).glob("*.md"))
        for problem in official_docs_problems(page, api_map, f"{lang}/{page.name}")
    ]


def page_links(docs_dir: Path = DOCS_DIR) -> set[str]:
    """Every absolute URL the pages of both languages link."""
    return {
        url
        for lang in LANGS
        for page in (docs_dir / lang).glob("*.md")
        for _, url in LINK_RE.findall(page.read_text(encoding="utf-8"))
    }


def follows_pattern(symbol: api_links.Symbol) -> bool:
    """generated/<full.name>.html, or generated/<Class>.html#<full.name>, in a namespace of PATTERN_NAMESPACES."""
    generated = f"https://{api_links.DOCS_HOST}{api_links.DOCS_ROOT}generated/"
    owner = symbol.name.rsplit(".", 1)[0]
    if symbol.url == f"{generated}{symbol.name}.html":
        return owner in PATTERN_NAMESPACES
    page, _, fragment = symbol.url.partition("#")
    cls = page.removeprefix(generated).removesuffix(".html")
    return fragment == symbol.name and cls == owner and cls.rsplit(".", 1)[0] in PATTERN_NAMESPACES


def unsourced_urls(api_map: api_links.ApiMap, docs_dir: Path = DOCS_DIR) -> list[str]:
    """One line per map URL that no page links and that does not follow the generated-page pattern."""
    linked = page_links(docs_dir)
    return [
        f"{api_map.path.name}: {symbol.name} = {symbol.url} is linked by no page and is not a generated-page "
        'URL (CONTRIBUTING.md, "Link an API name"): take the URL a page links'
        for symbol in api_map.symbols.values()
        if symbol.url not in linked and not follows_pattern(symbol)
    ]
