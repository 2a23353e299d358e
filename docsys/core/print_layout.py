"""Where the print edition's parts sit in the built site: shared by its build (docsys.build.print_edition)
and its checks (docsys.checks.print_edition, docsys.checks.links)."""

import re

from docsys.core.paths import lang_root

SLUG = "print"  # each language's print page: <lang root>print/
ARTICLES_DIR = "pages"  # the article files, beside the print page: print/pages/<key>.article.html
ARTICLE_SUFFIX = ".article.html"  # never index.html: a folder with one counts as a page of the site
PIECE = "<!-- print-piece -->"  # between the pieces of an article file, each put in place in one step
ARTICLE_FILES_RE = rf"(^|/){SLUG}/{ARTICLES_DIR}/[^/]*{re.escape(ARTICLE_SUFFIX)}$"  # for lychee's --exclude-path


def print_url(lang: str) -> str:
    return f"{lang_root(lang)}{SLUG}/"
