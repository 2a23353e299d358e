"""Build and test machinery of the PyTorch, Proven site, in four rooms, arrows pointing down:

- `docsys.record`: the `python -m docsys record` command (recording outputs, on CPU and GPU);
- `docsys.build`: what `mkdocs build` runs (Markdown extensions and hooks);
- `docsys.checks`: what the tests check (pages, parity, site, browser, links, ...);
- `docsys.core`: what they all use (snippets, running them, recordings, benchmark tables),
  standard library and torch only.
"""
