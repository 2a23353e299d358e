"""The font that prints a print edition's Chinese: Noto Sans CJK SC, subset to what the page uses.

The whole font is ~20 MB per weight; the zh print page uses about 1,100 of its characters. Each weight
is subset with fontTools to the page's CJK characters (`UNICODE_RANGES`), saved as WOFF2, renamed
(`FAMILY`, PostScript name `PTPNotoSansCJKsc-<style>`) so that a PDF's font list tells the site's own
font from the system's Noto, and cached under `.cache/print-font/` by a hash of the characters, the
source font file (path, size, modification time), fontTools' version and this module: a warm build
subsets nothing. The font's copyright and its license (SIL Open Font License 1.1) stay in its name
table, as the license asks of a modified copy.

The source is Debian's fonts-noto-cjk (scripts/setup.sh installs it for building the site), found at
its Debian path or through fontconfig; without it the build warns in one line, which fails a strict
build: a print edition whose Chinese came from whatever font the reader's system has would be a
silent fallback.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from docsys.build.files import write_atomically

FAMILY = "PTP Noto Sans CJK SC"  # the subset's family name, which the page's @font-face uses
SOURCE_FAMILY = "Noto Sans CJK SC"
DEBIAN_PACKAGE = "fonts-noto-cjk"
STYLES = {400: "Regular", 700: "Bold"}  # CSS weight -> the source font's style
DEBIAN_FILES = {style: Path(f"/usr/share/fonts/opentype/noto/NotoSansCJK-{style}.ttc") for style in STYLES.values()}
CACHE_DIR = Path(".cache") / "print-font"  # relative to mkdocs.yml's folder
CACHE_ENV = "PRINT_FONT_CACHE_DIR"  # overrides it: the tests' small sites share the project's subsets
KEEP = 4  # subsets kept per style (both languages' builds of a branch, and a few before)
# CJK radicals, symbols and punctuation, kana, bopomofo, ideographs (and their extensions), compatibility
# forms, full-width forms: the font prints these and only these, so Latin text keeps the page's own fonts.
UNICODE_RANGES = (
    (0x2E80, 0x2FDF),
    (0x3000, 0x30FF),
    (0x3100, 0x312F),
    (0x3190, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFFEF),
    (0x20000, 0x2FA1F),
)


class FontMissing(Exception):
    """The source font is not installed."""


@dataclass(frozen=True)
class Face:
    weight: int
    path: Path  # the subset, in the cache
    made: bool  # subset by this build (False: from the cache)


def characters(text: str) -> str:
    """The distinct characters of `text` that the font prints, in code point order."""
    return "".join(sorted(c for c in set(text) if any(lo <= ord(c) <= hi for lo, hi in UNICODE_RANGES)))


def faces(chars: str, cache_root: Path, reuse_newest: bool = False) -> list[Face]:
    """Each weight's subset for `chars`, from the cache or made now; FontMissing names what to install.
    `reuse_newest` (under `mkdocs serve`): a subset for other characters, the newest cached, rather than
    a new one, which takes 15-35 s; a character it lacks prints in another font in that preview only."""
    found = []
    for weight, style in STYLES.items():
        source = source_file(style)
        if source is None:
            raise FontMissing(
                f"{SOURCE_FAMILY} {style} is not installed; install the Debian package {DEBIAN_PACKAGE} "
                f"(bash scripts/setup.sh site, or apt-get install {DEBIAN_PACKAGE})"
            )
        cached = cache_root / f"{cache_key(chars, source)}-{style.lower()}.woff2"
        if not cached.exists() and reuse_newest and (newest := _newest(cache_root, style)):
            cached = newest
        made = not cached.exists()
        if made:
            write_atomically(cached, subset(source, chars, style))  # concurrent builds may share the cache
            prune(cache_root, style)
        found.append(Face(weight, cached, made))
    return found


def _newest(cache_root: Path, style: str) -> Path | None:
    subsets = sorted(cache_root.glob(f"*-{style.lower()}.woff2"), key=lambda p: p.stat().st_mtime, reverse=True)
    return subsets[0] if subsets else None


def prune(cache_root: Path, style: str, keep: int = KEEP) -> None:
    """Only the newest subsets of a style stay: every edit of a page's Chinese makes another."""
    subsets = sorted(cache_root.glob(f"*-{style.lower()}.woff2"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in subsets[keep:]:
        old.unlink(missing_ok=True)


def source_file(style: str) -> Path | None:
    """The installed font file of one style: Debian's path, else what fontconfig knows (a subprocess)."""
    if DEBIAN_FILES[style].is_file():
        return DEBIAN_FILES[style]
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    pattern = f":family={SOURCE_FAMILY}:style={style}"
    listed = subprocess.run(
        [fc_list, "--format", "%{file}\n", pattern], capture_output=True, text=True, timeout=30
    ).stdout.splitlines()
    return Path(listed[0]) if listed else None


def cache_key(chars: str, source: Path) -> str:
    from fontTools import version as fonttools_version

    stat = source.stat()
    parts = [
        chars,
        str(source),
        str(stat.st_size),
        str(stat.st_mtime_ns),
        fonttools_version,
        hashlib.sha256(Path(__file__).read_bytes()).hexdigest(),
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def subset(source: Path, chars: str, style: str) -> bytes:
    """The source font cut down to `chars`, renamed for the site, as WOFF2."""
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=face_index(source))
    options = ft_subset.Options()
    options.name_IDs = ["*"]  # keeps the copyright (0) and the license (13, 14)
    options.layout_features = ["*"]  # vertical and half-width punctuation forms
    subsetter = ft_subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    subsetter.subset(font)
    rename(font, style)
    to_truetype(font)
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def to_truetype(font) -> None:
    """Quadratic (TrueType) outlines in place of the CFF ones, as fontTools' otf2ttf does it. Chromium's PDF
    writer (Skia) embeds a CFF font as unnamed Type 3 fonts, so the PDF's font list could not tell the site's
    font from the system's Noto (CFF too); a TrueType font keeps its PostScript name there (and the WOFF2
    is smaller: 255 KiB against 352 KiB for the Regular subset of the zh print page)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order, outlines = font.getGlyphOrder(), font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(outlines)
        outlines[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, glyphs
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    glyf.compile(font)
    for name, glyph in glyphs.items():
        if hasattr(glyph, "xMin"):
            font["hmtx"][name] = (font["hmtx"][name][0], glyph.xMin)
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion, maxp.maxZones = 0x00010000, 1
    for field in (
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(maxp, field, 0)
    font["post"].formatType = 3.0  # no glyph names: a CID-keyed font has none worth keeping
    font.sfntVersion = "\0\1\0\0"


def face_index(source: Path) -> int:
    """Which font of a collection (.ttc) is the Simplified Chinese one (0 for a single font)."""
    from fontTools.ttLib import TTCollection

    if source.suffix.lower() not in (".ttc", ".otc"):
        return 0
    names = [font["name"].getDebugName(1) for font in TTCollection(source).fonts]
    if SOURCE_FAMILY not in names:
        raise FontMissing(f"{source} holds no {SOURCE_FAMILY} (it holds {', '.join(map(str, names))})")
    return names.index(SOURCE_FAMILY)


def rename(font, style: str) -> None:
    """Family, full, unique and PostScript names of the site's own subset (the others stay)."""
    postscript = f"PTPNotoSansCJKsc-{style}"
    new = {1: FAMILY, 16: FAMILY, 17: style, 4: f"{FAMILY} {style}", 6: postscript, 3: f"{postscript};subset"}
    table = font["name"]
    for record in list(table.names):
        if record.nameID in new:
            table.setName(new[record.nameID], record.nameID, record.platformID, record.platEncID, record.langID)


def stylesheet(urls: dict[int, str]) -> str:
    """The @font-face rules (weight -> the subset's URL from the page) and the text and code font
    stacks with the subset first (its unicode-range leaves every other character to the next font).
    The stacks apply on paper only: on screen the page needs none of the ~520 KiB (requested at load, they held
    Lighthouse's first paint of the zh print page at 4.1 s on a phone); `swap` shows text at once meanwhile.
    """
    ranges = ",".join(f"U+{lo:X}-{hi:X}" for lo, hi in UNICODE_RANGES)
    rules = [
        f'@font-face{{font-family:"{FAMILY}";src:url("{url}") format("woff2");font-weight:{weight};'
        f"font-style:normal;font-display:swap;unicode-range:{ranges}}}"
        for weight, url in urls.items()
    ]
    rules.append(f'@media print{{:root{{--md-text-font:"{FAMILY}";--md-code-font:"{FAMILY}"}}}}')
    return f'<style id="print-font">{"".join(rules)}</style>'
