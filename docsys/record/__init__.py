"""The `record` command: runs snippets and writes their recordings (standard library + torch only)."""
