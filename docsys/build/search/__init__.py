"""Site search: one Pagefind index per language, written at the end of each language's build.

The MkDocs hook is hook.py (mkdocs.yml `hooks:`). Material's header search box stays;
overrides/partials/search-bridge.html answers it through docs/assets/javascripts/search.js (a
worker that queries this index). Nothing is downloaded for search until the reader types.

What is indexed, and how, decides the ranking (there are no per-query boosts):
- Only each page's <article> goes into the index: not the navigation, header, footer or the
  heading permalinks. A section's heading names what it teaches: h1-h3 weigh 10, 9 and 8
  (Pagefind's defaults, 7, 6 and 5, let a page that uses a term often in passing outrank the
  section headed with it); code, program output and tables count half (document.py's WEIGHTS); an image's alt
  text is body text.
- What a reader never searches for is not indexed, because each result's indexed text is
  downloaded with the query (its budget: tests/content/test_search.py): of a recorded output (a
  page's "Output" block, a notebook cell's text output) only the lines that report an error or a
  warning, the text a reader pastes into search, are kept; of a code block only the API names it
  uses that the page's prose does not name (attributes, keyword arguments, imported names,
  environment variables; each once), not the snippet's own variables; the provenance line
  ("Verified with: ...") not at all.
- Words are split at punctuation inside a token, on both sides: `torch.amp.GradScaler("cuda")`
  is indexed as torch / amp / GradScaler / cuda, and search.js splits a query the same way, so
  an API name counts as a whole word wherever it appears (Pagefind alone would index
  `gradscalerstep` for `GradScaler.step()` and count `GradScaler` in it as a fraction of a word).
- The glossary's terms (docsys/core/glossary.toml) are indexed as one word each, with their parts:
  "gradient accumulation" and 梯度累积 are single words, so a page that uses the term outranks a
  page that uses its words apart; search.js joins them in a query too.
- Chinese is segmented here with jieba (dictionary words only, no HMM guesses), and search.js
  segments a query with the same words and log-probabilities (words.json beside the index).
  Pagefind's own query segmentation (the browser's Intl.Segmenter) disagrees with jieba (张量
  becomes 张 + 量, 分片 becomes 分 + 片, and such queries found nothing), so Chinese pages are
  indexed under the language key `x-zh`, for which Pagefind segments neither pages nor queries.
Inserted word breaks are SEP, and glossary terms are joined with JOIN (words.py); search.js removes
both from the excerpts and titles it shows.

The indexed copy of a page is cached in `.cache/search/` by a hash of its article and the
glossary, so a warm build neither imports jieba nor re-segments anything.

Errors: a missing Pagefind binary, a failing Pagefind run or an unreadable glossary stops the
build (PluginError).

The modules, each importing only those after it: hook.py (the hook's entry points) -> bundle.py
(the cache, Pagefind's run, terms.json and words.json) -> document.py (the indexed copy of a page)
-> words.py (word breaks, jieba) -> languages.py (language roots, glossary terms).
"""
