"""MkDocs hooks and Markdown extensions: what runs inside `mkdocs build`."""
