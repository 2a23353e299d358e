"""Checks of the built site as a reader gets it (browser, links, parity, ...)."""
