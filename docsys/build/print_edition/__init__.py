"""The print edition: every page of a language on one page, in nav order, for printing or saving as PDF.

mkdocs-print-site-plugin renders only the default language under mkdocs-static-i18n (its issue #70), so
the build makes the print pages itself (`hook.py`, an MkDocs hook): each language gets a page that the
theme renders like any other (`print/`, `zh/print/`: header, stylesheets, language switcher), and at the
end of that language's build its article is filled with every page's article, taken from the built
pages (`pages.py`): ids and in-page links made unique per page, links between pages turned into links
within the print page, relative asset URLs rewritten for the print page's own URL, scripts and the pages'
edit, view and report links left out (the notebook's clipboard and MathJax helpers, and links to edit a page,
do nothing on paper).

The print page itself holds the contents list and an empty section per page; its script
(docs/assets/print.js) fetches each page's article from a file beside it and puts it in place a piece at a
time, so that on a phone the page shows at once and stays responsive while it fills (`pages.py` says why).

The print pages are not search results (docsys/build/search skips a page whose front matter says
`search: {exclude: true}`) and are not in the sitemap: a search engine should send a reader to the page
itself. They do not say `noindex`: what a crawler reads there is the contents list, which no other page
repeats (and Lighthouse's SEO audit fails a page that asks not to be indexed).

Chinese is printed with a font the site serves itself (`font.py`): Noto Sans CJK SC (Debian's
fonts-noto-cjk), subset with fontTools to the characters the zh print page uses, cached under
`.cache/print-font/` by that character set and the source font, and named for the site, so that a PDF's
font list shows whether the site's font or a system font printed it (tests/content/test_print.py).
"""
