// A module worker that answers Material's search box with this language's Pagefind index
// (docsys/build/search/). overrides/partials/search-bridge.html starts it on the reader's
// first query, never before, and relays its answers to Material's search UI.
//
// A query is split into words exactly as the index was: at punctuation inside a token
// (torch.amp.GradScaler -> torch amp GradScaler), with the glossary's terms joined
// (terms.json) and, for Chinese, into the jieba words the index uses (words.json, fetched for
// the first query with Chinese in it). Pagefind runs here, in a worker, for a reason: in a page
// it reads the page's <html lang> and, for zh, re-splits every query with the browser's
// Intl.Segmenter, whose words disagree with jieba's (张量 -> 张 + 量). A worker has no <html>.

const RESULTS = 7; // at most this many pages' text is fetched per query (Material shows them first)
const RELEVANT = 0.2; // ... and only pages scoring at least this share of the best page's score
const PAUSE_MS = 120; // a query is searched once typing pauses this long: no index or text for "G", "Gr", ...
const BREAK = /(?<=\S)\^(<\/mark>)?(?: |$)/g; // word breaks the index inserted (docsys/build/search/words.py SEP)
const JOIN = /(?<=\S)\^(?=\S)/g; // inside a glossary term (JOIN): nothing between Chinese characters, else a space
const INNER_PUNCTUATION = /(?<=[\p{L}\p{N}_])[^\p{L}\p{N}_\s]+(?=[\p{L}\p{N}_])/gu;
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g; // (global: test() with it would keep a position)
const HAS_HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

let pagefind = null; // Pagefind's module, once loaded
let terms = null; // the glossary's terms of several words (terms.json), as one regular expression
let words = null; // Chinese words -> log-probability (words.json), fetched for the first Chinese query
let latest = 0;

self.addEventListener("message", async ({ data: { bundle, query } }) => {
  pagefind ??= load(bundle);
  terms ??= fetchJSON(`${bundle}terms.json`).then(list => (list.length ? joiner(list) : null));
  const ticket = ++latest;
  const current = () => ticket === latest; // a later keystroke supersedes this query
  await new Promise(resolve => setTimeout(resolve, PAUSE_MS));
  if (!current()) return;
  if (HAS_HAN.test(query)) words ??= fetchJSON(`${bundle}words.json`).then(dictionary);
  const result = await answer(await pagefind, split(query, await terms, await words), current);
  if (result && current()) self.postMessage({ query, result });
});

async function load(bundle) {
  const module = await import(`${bundle}pagefind.js`);
  await module.options({ excerptLength: 24 });
  await module.init();
  return module;
}

async function fetchJSON(url) {
  const response = await fetch(url);
  return response.ok ? response.json() : {};
}

/** words.json ({"-9.12": "词 词", ...}) as a Map of each word to its log-probability. */
function dictionary(byProbability) {
  return new Map(Object.entries(byProbability).flatMap(([p, list]) => list.split(" ").map(w => [w, Number(p)])));
}

/** Glossary terms of several words (or their plurals), each to be searched as one word. */
function joiner(list) {
  const alternatives = list.map(t => t.split(/[ -]/).map(w => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s-]+"));
  return new RegExp(`\\b(?:${alternatives.join("|")})(?:e?s)?\\b`, "gi");
}

/** The query as the index's words, separated by spaces. */
function split(query, terms, words) {
  let text = query.replace(INNER_PUNCTUATION, " ");
  if (terms) text = text.replace(terms, term => `${term.replace(/[\s-]+/g, "")} ${term}`); // the term, then its words
  if (words?.size) text = text.replace(HAN, run => ` ${segment(run, words).join(" ")} `);
  return text.replace(/\s+/g, " ").trim();
}

/** jieba's segmentation (no HMM) restricted to the index's words: the most probable path. */
function segment(run, dictionary) {
  const unknown = Math.min(...dictionary.values()) - 1;
  const longest = Math.max(...[...dictionary.keys()].map(w => w.length));
  const best = new Array(run.length + 1).fill(-Infinity);
  const next = new Array(run.length + 1);
  best[run.length] = 0;
  for (let i = run.length - 1; i >= 0; i--) {
    for (let j = i + 1; j <= Math.min(run.length, i + longest); j++) {
      const p = dictionary.get(run.slice(i, j)) ?? (j === i + 1 ? unknown : undefined);
      if (p !== undefined && p + best[j] >= best[i]) {
        best[i] = p + best[j];
        next[i] = j;
      }
    }
  }
  const pieces = [];
  for (let i = 0; i < run.length; i = next[i]) pieces.push(run.slice(i, next[i]));
  return pieces;
}

async function answer(pagefind, query, current) {
  if (!query) return { items: [], total: 0 };
  const search = await pagefind.search(query);
  if (!current()) return null; // fetch no page text for a superseded query
  const best = search.results[0]?.score ?? 0;
  const top = search.results.slice(0, RESULTS).filter(result => result.score >= best * RELEVANT);
  const pages = await Promise.all(top.map(result => result.data()));
  const searched = Object.fromEntries(query.split(" ").map(word => [word, true]));
  const items = pages.map((page, i) => group(page, top[i].score, searched));
  return { items, total: items.length };
}

/** One page's result as Material expects it: the page first, then its sections, best first. */
function group(page, score, searched) {
  const weight = s => s.weighted_locations.reduce((sum, l) => sum + l.balanced_score, 0);
  const sections = page.sub_results
    .filter(s => s.url.includes("#"))
    .map(s => ({ section: s, weight: weight(s) }))
    .sort((a, b) => b.weight - a.weight);
  const top = sections[0]?.weight || 1;
  const title = clean(escape(page.meta.title ?? page.url));
  return [
    { location: page.url, title, text: `<p>${clean(page.excerpt)}</p>`, score, terms: searched },
    ...sections.map(({ section, weight }) => ({
      location: section.url,
      title: clean(escape(section.title)),
      text: `<p>${clean(section.excerpt)}</p>`,
      score: score * (weight / top),
      terms: searched,
    })),
  ];
}

function clean(html) {
  return html.replace(BREAK, "$1").replace(JOIN, (_, at, all) => (/\p{Script=Han}/u.test(all[at - 1]) ? "" : " "));
}

function escape(text) {
  return text.replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}
