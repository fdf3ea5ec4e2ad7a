/*
 * PR 精读笔记 search: query splitting, ranking and highlighting.
 *
 * Inserted at the end of language_data.js, which loads after searchtools.js.
 * prnotesTokens() must split exactly as tokens.py does (the tests compare
 * them in a browser).
 */

// PRNOTES_NOTE_DOCNAME, the test for note pages, is defined before this
// file from prnotes.contract, and PRNOTES_SEARCH_REPLACED and
// PRNOTES_SEARCH_READ from prnotes.sphinxext._compat (see language.py).
const PRNOTES_HUB_WEIGHT = 0.6;
const PRNOTES_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
const PRNOTES_RUN = new RegExp(
  `[A-Za-z0-9_]+(?:[.\\-][A-Za-z0-9_]+)*|[${PRNOTES_CJK}]+`, "g");
const PRNOTES_PART_SEP = /[._\-]+/;
const PRNOTES_CAMEL = /(?<=[a-z0-9])(?=[A-Z][a-z])/;
const PRNOTES_DIGITS = /^[0-9]+$/;
// Words of a question that are not what the reader looks for.
const PRNOTES_QUESTION_WORDS = /怎么样|怎么|怎样|如何|为什么|为何|什么|哪些|哪个|哪里|是否|有没有|相关的?|关于/g;

const prnotesAsciiTerm = (word) => {
  if (PRNOTES_DIGITS.test(word)) return word.length >= 2 ? `#${word}` : null;
  return word.length >= 2 ? word.toLowerCase() : null;
};

const prnotesTokens = (text) => {
  const out = new Set();
  // prnotesNormalize, prnotesWordTerm: fold.js (traditional characters, inflection).
  for (const [run] of prnotesNormalize(text).matchAll(PRNOTES_RUN)) {
    const terms = [];
    if (run[0] >= "\u3400") {
      if (run.length === 1) terms.push(run);
      for (let i = 0; i + 1 < run.length; i++) terms.push(run.slice(i, i + 2));
    } else {
      const parts = run.split(PRNOTES_PART_SEP);
      terms.push(prnotesWordTerm(run, parts.length === 1 && run.split(PRNOTES_CAMEL).length === 1));
      for (const part of parts) {
        const pieces = part.split(PRNOTES_CAMEL);
        terms.push(prnotesWordTerm(part, pieces.length === 1));
        if (pieces.length > 1) terms.push(...pieces.map((piece) => prnotesWordTerm(piece, true)));
      }
    }
    terms.filter((t) => t).forEach((t) => out.add(t));
  }
  return [...out];
};

const PrnotesSearch = {
  MAX_RESULTS: 50,
  _lookups: new Map(),  // stemmed term -> Map(file index -> weight); per index
  _index: null,

  stem: (term) => new Stemmer().stemWord(term.toLowerCase()),

  _has: (map, key) => Object.prototype.hasOwnProperty.call(map, key),

  /**
   * Where a stemmed term occurs: file index -> the best weight of the term
   * in that file (Scorer: title 15, part of a title word 7, body 5, part of a
   * body word 2). Parts count only for terms longer than two characters and
   * only when the term is not a whole word there, as in searchtools.js.
   */
  lookup: (term) => {
    const index = Search._index;
    if (PrnotesSearch._index !== index) {
      PrnotesSearch._index = index;
      PrnotesSearch._lookups = new Map();
    }
    if (PrnotesSearch._lookups.has(term)) return PrnotesSearch._lookups.get(term);
    const best = new Map();
    const note = (files, weight) =>
      (typeof files === "number" ? [files] : files).forEach((f) =>
        best.set(f, Math.max(best.get(f) || 0, weight)));
    const sources = [
      [index.titleterms, Scorer.title, Scorer.partialTitle],
      [index.terms, Scorer.term, Scorer.partialTerm],
    ];
    for (const [map, whole, part] of sources) {
      if (PrnotesSearch._has(map, term)) note(map[term], whole);
      else if (term.length > 2)
        for (const key of Object.keys(map)) if (key.includes(term)) note(map[key], part);
    }
    PrnotesSearch._lookups.set(term, best);
    return best;
  },

  /**
   * The query's terms. A bigram that spans two words of the query
   * ("浅克隆的竞态" -> "的竞") usually occurs nowhere; such terms, unknown to
   * the index, are left out, unless no term is known.
   */
  split: (query) => {
    const index = typeof Search === "undefined" ? null : Search._index;
    const all = prnotesQueryTerms(query.replace(PRNOTES_QUESTION_WORDS, " "), index);  // fold.js
    if (typeof Search === "undefined" || !Search._index) return all;
    const kept = all.filter((t) => PrnotesSearch.lookup(PrnotesSearch.stem(t)).size > 0);
    return kept.length ? kept : all;
  },

  /**
   * Ranked full-text search, replacing searchtools.js's, which requires every
   * term and scores a page by its single best term. Here a page's score is
   * the sum over the query terms it has of weight x rarity, with rarity
   * 1 + ln(pages / pages with the term), times the share of the query's
   * rarity it covers. A page must cover at least half of it, so one wrong
   * word does not empty the results and one common word does not list the
   * whole site. At most MAX_RESULTS pages, the best, are listed.
   */
  performTermsSearch: (searchTerms, excludedTerms) => {
    const index = Search._index;
    const fileCount = index.docnames.length;
    const scores = new Map();
    const covered = new Map();
    let total = 0;
    for (const term of searchTerms) {
      const best = PrnotesSearch.lookup(term);
      if (!best.size) continue;
      const idf = 1 + Math.log(fileCount / best.size);
      total += idf;
      best.forEach((weight, f) => {
        scores.set(f, (scores.get(f) || 0) + weight * idf);
        covered.set(f, (covered.get(f) || 0) + idf);
      });
    }
    const excluded = new Set();
    excludedTerms.forEach((term) => PrnotesSearch.lookup(term).forEach((_, f) => excluded.add(f)));
    const results = [];
    scores.forEach((score, f) => {
      const share = covered.get(f) / total;
      if (share < 0.5 || excluded.has(f)) return;
      // Notes are the answers; hub pages (subsystems, lists, indexes) only
      // point at them, so a note outranks a hub page that matches as well.
      const weight = PRNOTES_NOTE_DOCNAME.test(index.docnames[f]) ? 1 : PRNOTES_HUB_WEIGHT;
      results.push([
        index.docnames[f],
        index.titles[f],
        "",
        null,
        Math.round(10 * score * share * weight) / 10,
        index.filenames[f],
        SearchResultKind.text,
      ]);
    });
    // Only the best ones: searchtools.js lists one result per 5 ms and
    // fetches each page for its snippet, so a common word on a large site
    // would keep the browser busy for minutes.
    results.sort((a, b) => b[4] - a[4] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    return results.slice(0, PrnotesSearch.MAX_RESULTS);
  },

  /**
   * The result's snippet: the 240 characters of the page, title left out
   * (the result shows it), around the place where the most of the reader's
   * words occur together; longer words count for more.
   */
  makeSearchSummary: (htmlText, keywords, anchor) => {
    const doc = new DOMParser().parseFromString(htmlText, "text/html");
    const main = doc.querySelector('[role="main"]');
    if (!main || anchor) return PrnotesSearch._makeSearchSummary(htmlText, keywords, anchor);
    main.querySelectorAll(".headerlink, script, style, nav, h1").forEach((el) => el.remove());
    const text = main.textContent.replace(/\s+/g, " ").trim();
    const lower = text.toLowerCase();
    const words = [...new Set([...PrnotesSearch.highlight, ...keywords])].filter((w) => w);
    const width = 240;
    let best = 0;
    let bestScore = 0;
    for (const word of words) {
      for (let at = lower.indexOf(word), n = 0; at >= 0 && n < 50; at = lower.indexOf(word, at + 1), n++) {
        const start = Math.max(at - 40, 0);
        const window = lower.slice(start, start + width);
        const score = words.reduce((sum, w) => sum + (window.includes(w) ? w.length : 0), 0);
        if (score > bestScore || (score === bestScore && start < best)) [best, bestScore] = [start, score];
      }
    }
    const summary = document.createElement("p");
    summary.classList.add("context");
    summary.textContent = (best > 0 ? "..." : "") + text.substr(best, width).trim() + (best + width < text.length ? "..." : "");
    return summary;
  },

  highlight: [],  // the current query's highlight terms

  /** What the reader typed, for highlighting: whole runs first, then terms. */
  highlightTerms: (query, terms) => {
    const runs = query.replace(PRNOTES_QUESTION_WORDS, " ").normalize("NFKC").toLowerCase().match(PRNOTES_RUN) || [];
    runs.sort((a, b) => b.length - a.length);
    return new Set([...runs, ...[...terms].sort((a, b) => b.length - a.length)]);
  },
};

function splitQuery(query) {
  return PrnotesSearch.split(query);
}

/**
 * Put the functions above in place of searchtools.js's. They are not a
 * documented API of Sphinx: PRNOTES_SEARCH_REPLACED and PRNOTES_SEARCH_READ
 * (from prnotes.sphinxext._compat, which also checks Sphinx's searchtools.js
 * when the build starts) name what is replaced and read. When one of them is
 * missing, nothing is replaced and Sphinx's own search runs, with this
 * file's query splitting. Returns what is missing.
 */
const prnotesInstall = (search) => {
  const missing = [
    ...PRNOTES_SEARCH_REPLACED.filter((name) => typeof search[name] !== "function"),
    ...PRNOTES_SEARCH_READ.filter((name) => !(name in search)),
    ...(typeof Scorer === "undefined" ? ["Scorer"] : []),
    ...(typeof SearchResultKind === "undefined" ? ["SearchResultKind"] : []),
  ];
  if (missing.length) {
    console.warn(`prnotes: searchtools.js has no ${missing.join(", ")}; Sphinx's own search is used`);
    return missing;
  }
  search.performTermsSearch = PrnotesSearch.performTermsSearch;
  PrnotesSearch._makeSearchSummary = search.makeSearchSummary;
  search.makeSearchSummary = PrnotesSearch.makeSearchSummary;
  const parseQuery = search._parseQuery;
  search._parseQuery = (query) => {
    const parsed = parseQuery(query);
    parsed[3] = PrnotesSearch.highlightTerms(query, parsed[3]);
    PrnotesSearch.highlight = [...parsed[3]];
    if (typeof SPHINX_HIGHLIGHT_ENABLED !== "undefined" && SPHINX_HIGHLIGHT_ENABLED)
      localStorage.setItem("sphinx_highlight_terms", [...parsed[3]].join(" "));
    return parsed;
  };
  return missing;
};

// null where there is no Search object (language_data.js loads on every page).
const PRNOTES_SEARCH_MISSING = typeof Search === "undefined" ? null : prnotesInstall(Search);
