"""The library every other room uses: snippets, running them, recordings, benchmark tables.

Standard library and torch only: it runs on a GPU machine that has no MkDocs.
"""
