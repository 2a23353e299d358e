"""The symbol map: PyTorch API names and their official reference pages (docsys/core/api_links.toml).

The build links inline-code API names on pages from it (docsys.build.api_links), the tests hold the
pages' "Official documentation" lists to it (docsys.checks.api_docs), and `unresolved` proves every
name still exists in the pinned torch. A URL cannot be fetched offline: `load` checks its form only.
Standard library, plus torch where a name is resolved (this room runs on the GPU machine too).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

MAP_FILE = Path(__file__).with_name("api_links.toml")
DOCS_HOST = "docs.pytorch.org"
DOCS_ROOT = "/docs/stable/"
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")
# Sphinx's autosummary names a class page `<name>_class.html` where a function differs from it only in case
# (torch.cuda.Stream beside torch.cuda.stream), so the two pages do not collide on a case-insensitive disk.
CLASS_PAGE_SUFFIX = "_class"


class ApiMapError(ValueError):
    """A malformed entry of the map: the message is one line naming the file, the symbol and the fix."""


@dataclass(frozen=True)
class Symbol:
    name: str  # the full dotted name, `torch.nn.Module.register_forward_hook`
    url: str
    aliases: tuple[str, ...] = ()  # short spellings the pages use, `nn.Module.register_forward_hook`


@dataclass(frozen=True)
class ApiMap:
    path: Path
    symbols: dict[str, Symbol]
    digest: str  # SHA-256 of the file's bytes: with torch's version, the key of the resolution cache

    def lookup(self) -> dict[str, Symbol]:
        """Every spelling a page may write (full names and aliases) and the symbol it names."""
        spellings = {name: symbol for name, symbol in self.symbols.items()}
        for symbol in self.symbols.values():
            spellings.update(dict.fromkeys(symbol.aliases, symbol))
        return spellings


def url_problem(name: str, url: str) -> str | None:
    """What is wrong with the form of `url` as the reference of `name`, None if nothing."""
    parts = urlsplit(url)
    if parts.scheme != "https" or parts.netloc != DOCS_HOST or not parts.path.startswith(DOCS_ROOT):
        return f"not https://{DOCS_HOST}{DOCS_ROOT}..."
    if not parts.path.endswith(".html"):
        return "its path does not end in .html"
    if parts.fragment.startswith("torch.") and parts.fragment != name:
        return f"its fragment #{parts.fragment} names another symbol"
    page = parts.path.removeprefix(DOCS_ROOT)
    if page.startswith("generated/"):
        generated = page.removeprefix("generated/").removesuffix(".html").removesuffix(CLASS_PAGE_SUFFIX)
        of_itself = generated == name and not parts.fragment
        of_its_class = name.startswith(generated + ".") and parts.fragment == name
        if not (of_itself or of_its_class):
            return f"a generated page is generated/{name}.html, or its class's page with #{name}"
    return None


def _symbol(path: Path, name: str, entry: object) -> Symbol:
    if isinstance(entry, str):
        entry = {"url": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("url"), str) or set(entry) - {"url", "aliases"}:
        raise ApiMapError(f'{path.name}: "{name}" must be a URL or {{ url = "...", aliases = [...] }}')
    aliases = tuple(entry.get("aliases", ()))
    if not NAME_RE.match(name) or not name.startswith("torch"):
        raise ApiMapError(f'{path.name}: "{name}" is not a dotted name in torch')
    problem = url_problem(name, entry["url"])
    if problem:
        raise ApiMapError(f'{path.name}: "{name}" = "{entry["url"]}": {problem}')
    for alias in aliases:
        if not NAME_RE.match(alias) or alias.rsplit(".", 1)[-1] != name.rsplit(".", 1)[-1]:
            raise ApiMapError(f'{path.name}: "{name}": alias "{alias}" must be a dotted name ending as it ends')
    return Symbol(name, entry["url"], aliases)


def _check_aliases(path: Path, symbols: dict[str, Symbol]) -> None:
    """An alias names one symbol: not a mapped name itself, not another symbol's alias."""
    owner: dict[str, str] = {}
    for symbol in symbols.values():
        for alias in symbol.aliases:
            if alias in symbols:
                raise ApiMapError(f'{path.name}: alias "{alias}" of {symbol.name} is a mapped name itself')
            other = owner.setdefault(alias, symbol.name)
            if other != symbol.name:
                raise ApiMapError(f'{path.name}: alias "{alias}" names both {other} and {symbol.name}: drop one')


def load(path: Path = MAP_FILE) -> ApiMap:
    """The map, every entry's form checked; ApiMapError (one line) on the first malformed one."""
    raw = path.read_bytes()
    try:
        table = tomllib.loads(raw.decode("utf-8")).get("symbols", {})
    except tomllib.TOMLDecodeError as error:
        raise ApiMapError(f"{path.name}: not TOML ({error})") from None
    symbols = {name: _symbol(path, name, entry) for name, entry in table.items()}
    _check_aliases(path, symbols)
    return ApiMap(path, symbols, hashlib.sha256(raw).hexdigest())


def _resolves(name: str) -> str | None:
    """Why `name` is not an importable module followed by attributes, None if it is."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for index, attribute in enumerate(parts[cut:], start=cut):
            if not hasattr(found, attribute):
                return f"{'.'.join(parts[:index])} has no attribute {attribute!r}"
            found = getattr(found, attribute)
        return None
    return f"no module {parts[0]!r}"


def torch_version() -> str:
    """The installed torch's version, read from its metadata: importing torch costs 1-2 s."""
    return importlib.metadata.version("torch")


def unresolved(api_map: ApiMap) -> list[str]:
    """One line per mapped name that the installed torch does not have (imports torch)."""
    version = torch_version()
    lines = []
    for name in api_map.symbols:
        why = _resolves(name)
        if why:
            lines.append(
                f"{api_map.path.name}: {name} does not resolve in torch {version} ({why}): rename or remove it"
            )
    return lines


def unresolved_cached(api_map: ApiMap, cache_file: Path) -> list[str]:
    """`unresolved`, kept in `cache_file` for this torch version and this map's content: a warm build imports
    no torch."""
    key = f"{torch_version()} {api_map.digest}"
    try:
        cached = json.loads(cache_file.read_text(encoding="utf-8"))
        if cached.get("key") == key:
            return list(cached["unresolved"])
    except (OSError, ValueError, KeyError, TypeError):
        pass  # absent or damaged: resolved again, never trusted
    lines = unresolved(api_map)
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    cache_file.write_text(json.dumps({"key": key, "unresolved": lines}), encoding="utf-8")
    return lines
