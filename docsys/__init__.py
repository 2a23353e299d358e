"""Build and test machinery for the PyTorch, Proven site.

One module per concern: `paths` (where things live), `snippets` (running examples and
their recorded output), `pages` (expanding and scanning Markdown the way MkDocs does),
`parity` (keeping the zh and en pages in step), `markers` (pytest markers and their skip
reasons). `python -m docsys` is the command-line entry point.
"""
