"""A small site built with the project's own mkdocs.yml, for planting faults the site checks must catch.

The pages are a few fixed ones (below) rather than a copy of docs/, so the fault tests stay fast and
do not depend on pages that are being written; everything else (theme, overrides, i18n, search,
hooks, assets) is the real configuration. A test writes its fault into the pages or assets, then
builds.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from docsys.paths import DOCS_DIR, MKDOCS_YML, ROOT
from docsys.site import Build

PAGES = {
    "en/index.md": """\
---
description: A small copy of the site for planting faults.
---

# Home { #home }

Read about [mixed precision](mixed-precision.md#autocast).
""",
    "en/mixed-precision.md": """\
---
description: Mixed precision with torch.autocast.
---

# Mixed precision { #mixed-precision }

Mixed precision runs some operations in a lower-precision dtype.

## Autocast { #autocast }

```python
import torch

with torch.autocast("cpu", dtype=torch.bfloat16):
    y = torch.ones(2, 2) @ torch.ones(2, 2)
print(y.dtype)
```
""",
    "zh/index.md": """\
---
description: 用于植入故障的小型站点副本。
---

# 首页 { #home }

阅读[混合精度](mixed-precision.md#autocast)。
""",
    "zh/mixed-precision.md": """\
---
description: 用 torch.autocast 实现混合精度。
---

# 混合精度 { #mixed-precision }

混合精度让部分运算以较低精度的数据类型执行。

## 自动类型转换 { #autocast }

```python
import torch

with torch.autocast("cpu", dtype=torch.bfloat16):
    y = torch.ones(2, 2) @ torch.ones(2, 2)
print(y.dtype)
```
""",
}

NAV = [{"Home": "index.md"}, {"Mixed precision": "mixed-precision.md"}]

_BUILD = """\
import json, logging, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
logging.basicConfig(level=logging.INFO, format="%(levelname)s - %(message)s")
args = json.loads(sys.argv[1])
config = load_config(
    args["config"], docs_dir=args["docs_dir"], site_dir=args["site_dir"], nav=args["nav"], strict=False
)
if args["without_overrides"]:  # the theme as Material ships it, without overrides/ (custom_dir)
    config.theme.dirs = [d for d in config.theme.dirs if d != args["overrides"]]
config.plugins.on_startup(command="build", dirty=False)
try:
    build(config)
finally:
    config.plugins.on_shutdown()
"""


def write_docs(tmp: Path) -> Path:
    """The small docs tree (pages above, the real docs/assets/) under tmp/docs; returns it."""
    docs = tmp / "docs"
    shutil.copytree(DOCS_DIR / "assets", docs / "assets")
    for name, text in PAGES.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    return docs


def build(docs: Path, site_dir: Path, without_overrides: bool = False) -> Build:
    """Build a docs tree with the project's mkdocs.yml (and its hooks); optionally without overrides/.

    Not strict: hooks rightly warn about products (graphs, tables) that no page of the small site
    shows. The checks under test must find the planted fault by themselves.
    """
    args = {
        "config": str(MKDOCS_YML),
        "docs_dir": str(docs),
        "site_dir": str(site_dir),
        "nav": NAV,
        "overrides": str(ROOT / "overrides"),
        "without_overrides": without_overrides,
    }
    proc = subprocess.run(
        [sys.executable, "-c", _BUILD, json.dumps(args)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    result = Build(site_dir, proc.returncode, proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise RuntimeError(f"small site build failed:\n{result.log}")
    return result
