/*
 * PR 精读笔记 search: query splitting, ranking, results as the reader types
 * in the search dialog, snippets and highlighting. The one script that
 * touches searchtools.js's and sphinx_highlight.js's internals.
 *
 * Inserted at the end of language_data.js, which loads after searchtools.js.
 * prnotesTokens() must split exactly as tokens.py does (the tests compare
 * them in a browser).
 */

// PRNOTES_NOTE_DOCNAME, the test for note pages, is defined before this
// file from prnotes.contract, and PRNOTES_SEARCH_REPLACED and
// PRNOTES_SEARCH_READ from prnotes.sphinxext._internals (see language.py).
const PRNOTES_HUB_WEIGHT = 0.6;
const PRNOTES_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
const PRNOTES_RUN = new RegExp(
  `[A-Za-z0-9_]+(?:[.\\-][A-Za-z0-9_]+)*|[${PRNOTES_CJK}]+`, "g");
const PRNOTES_PART_SEP = /[._\-]+/;
const PRNOTES_CAMEL = /(?<=[a-z0-9])(?=[A-Z][a-z])/;
const PRNOTES_DIGITS = /^[0-9]+$/;
const PRNOTES_HYPHENATED = /^[A-Za-z]+(?:-[A-Za-z]+)+$/;
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
      if (PRNOTES_HYPHENATED.test(run)) terms.push(prnotesWordTerm(parts.join(""), true));
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
  _keys: new Map(),  // term map of the index -> its keys
  _index: null,
  _loading: null,  // the searchindex.js script element, once added

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
      PrnotesSearch._keys = new Map();
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
      else if (term.length > 2) {
        if (!PrnotesSearch._keys.has(map)) PrnotesSearch._keys.set(map, Object.keys(map));
        for (const key of PrnotesSearch._keys.get(map)) if (key.includes(term)) note(map[key], part);
      }
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
    if (!index) return all;
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
   * whole site. Returns [file index, score] pairs.
   */
  scoreFiles: (searchTerms, excludedTerms) => {
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
    const found = [];
    scores.forEach((score, f) => {
      const share = covered.get(f) / total;
      if (share >= 0.5 && !excluded.has(f)) found.push([f, score * share]);
    });
    return found;
  },

  /**
   * The search, replacing searchtools.js's _performSearch (same arguments,
   * same result rows, the best last as Search.query expects). One row per
   * page: the terms search above, without Sphinx's separate rows for every
   * section title that matches. Notes are the answers; hub pages (subsystems,
   * reading and watch lists, tags, the PR index, digests) only point at
   * them, so every note that matches comes before every hub page, and a hub
   * page's score is capped at the score of the row above it. At most
   * MAX_RESULTS pages: searchtools.js lists one result per 5 ms and fetches
   * each page for its snippet.
   */
  performSearch: (query, searchTerms, excludedTerms, highlightTerms, objectTerms) => {
    const index = Search._index;
    const rows = PrnotesSearch.scoreFiles(searchTerms, excludedTerms).map(([f, score]) => {
      const note = PRNOTES_NOTE_DOCNAME.test(index.docnames[f]);
      return [note ? 0 : 1, Math.round(10 * score * (note ? 1 : PRNOTES_HUB_WEIGHT)) / 10, f];
    });
    rows.sort((a, b) => a[0] - b[0] || b[1] - a[1] || (index.titles[a[2]] < index.titles[b[2]] ? -1 : 1));
    let above = Infinity;
    const results = rows.slice(0, PrnotesSearch.MAX_RESULTS).map(([, score, f]) => {
      above = Math.min(above, score);
      return [index.docnames[f], index.titles[f], "", null, above, index.filenames[f], SearchResultKind.text];
    });
    return results.reverse();
  },

  /** The page's text that a snippet may quote: a note's advice, else the article, without furniture. */
  snippetText: (htmlText) => {
    const doc = new DOMParser().parseFromString(htmlText, "text/html");
    const main = doc.querySelector('[role="main"]');
    if (!main) return null;
    const article = main.querySelector("article") || main;
    const advice = article.querySelector("section.prnotes-advice");
    const text = (region) => {
      region.querySelectorAll(".headerlink, script, style, nav, h1, .no-search, dl.field-list").forEach((el) => el.remove());
      return region.textContent.replace(/\s+/g, " ").trim();
    };
    if (advice) {
      advice.querySelectorAll("h2, .admonition").forEach((el) => el.remove());
      const said = text(advice);
      if (said) return said;
    }
    return text(article) || main.textContent.replace(/\s+/g, " ").trim();
  },

  /**
   * The result's snippet: 240 characters of the note's advice (of the
   * article on other pages; field lists, badges, headings and navigation
   * left out) around the place where the most of the reader's words occur
   * together; longer words count for more.
   */
  makeSearchSummary: (htmlText, keywords, anchor) => {
    const text = anchor ? null : PrnotesSearch.snippetText(htmlText);
    if (text === null) return PrnotesSearch._makeSearchSummary(htmlText, keywords, anchor);
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

  /**
   * Mark the terms of the search that led here in the article, as
   * sphinx_highlight.js would (it does nothing on pages that load
   * searchtools.js): from localStorage, where _parseQuery leaves them, or
   * from ?highlight=.
   */
  highlightPage: () => {
    const url = new URL(window.location);
    const stored = localStorage.getItem("sphinx_highlight_terms") || url.searchParams.get("highlight") || "";
    localStorage.removeItem("sphinx_highlight_terms");
    if (url.searchParams.has("highlight")) {
      url.searchParams.delete("highlight");
      window.history.replaceState({}, "", url);
    }
    const terms = stored.toLowerCase().split(/\s+/).filter((t) => t);
    const article = document.querySelector("article.bd-article") || document.querySelector('[role="main"]');
    if (article) terms.forEach((term) => _highlightText(article, term, "highlighted"));
  },

  /** Load searchindex.js once (pages other than the search page load it when a search starts). */
  loadIndex: () => {
    if (Search._index || PrnotesSearch._loading) return;
    const script = document.createElement("script");
    script.src = `${document.documentElement.dataset.content_root}searchindex.js`;
    script.addEventListener("load", () => PrnotesDialog.run());
    script.addEventListener("error", () => console.error(`prnotes: the search index ${script.src} did not load`));
    PrnotesSearch._loading = script;
    document.body.appendChild(script);
  },
};

function splitQuery(query) {
  return PrnotesSearch.split(query);
}

/**
 * Results as the reader types, in the theme's search dialog (Ctrl+K) on
 * every page but the search page. The theme's own search_as_you_type cannot
 * serve: it needs searchtools.js and the whole index loaded with every page
 * (it reads Search when the page loads), waits 300 ms after each key, and
 * offers no keyboard navigation. Here the index loads when the dialog opens
 * or the first key is typed; each key runs the search above and lists the
 * best pages at once, their snippets following as the pages arrive. The
 * field is an ARIA combobox: ArrowDown and ArrowUp move through the results,
 * Enter opens the marked one (or, with none marked, the search page), Escape
 * closes the dialog (the theme's handler).
 */
const PrnotesDialog = {
  SHOWN: 8,
  _pages: new Map(),  // page URL -> Promise of its HTML
  _run: 0,
  active: -1,

  init: () => {
    const dialog = document.getElementById("pst-search-dialog");
    if (!dialog || DOCUMENTATION_OPTIONS.pagename === "search") return;
    const input = dialog.querySelector('input[name="q"]');
    if (!input) return;
    const box = document.createElement("div");
    box.className = "prnotes-dialog-results";
    box.innerHTML =
      '<p class="prnotes-dialog-status" role="status"></p>' +
      '<div class="prnotes-dialog-list" id="prnotes-dialog-list" role="listbox" aria-label="搜索结果" hidden></div>';
    dialog.appendChild(box);
    Object.assign(PrnotesDialog, {dialog, input, status: box.firstChild, list: box.lastChild});
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", "prnotes-dialog-list");
    input.setAttribute("aria-expanded", "false");
    input.addEventListener("input", () => {
      PrnotesSearch.loadIndex();
      PrnotesDialog.run();
    });
    input.addEventListener("keydown", PrnotesDialog.key);
    new MutationObserver(() => dialog.open && PrnotesSearch.loadIndex()).observe(dialog, {attributes: true, attributeFilter: ["open"]});
    dialog.addEventListener("close", () => localStorage.removeItem("sphinx_highlight_terms"));
    if (dialog.open) PrnotesSearch.loadIndex();
  },

  url: (docname) => {
    const root = document.documentElement.dataset.content_root;
    if (DOCUMENTATION_OPTIONS.BUILDER === "dirhtml")
      return root + (docname === "index" ? "" : `${docname.replace(/(^|\/)index$/, "")}/`);
    return root + docname + DOCUMENTATION_OPTIONS.FILE_SUFFIX;
  },

  /** Search for what the field holds and list the results. */
  run: () => {
    const {input, list, status} = PrnotesDialog;
    if (!input) return;
    const run = ++PrnotesDialog._run;
    const query = input.value.trim();
    PrnotesDialog.select(-1);
    list.replaceChildren();
    if (!query) {
      status.textContent = "";
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      return;
    }
    if (!Search._index) {
      status.textContent = "正在载入搜索索引…";
      return;
    }
    const parsed = Search._parseQuery(query);
    const results = Search._performSearch(...parsed).reverse();
    const highlight = [...parsed[3]];
    status.textContent = results.length ? `找到 ${results.length} 个页面` : "没有找到匹配的页面";
    results.slice(0, PrnotesDialog.SHOWN).forEach(([docname, title], i) => {
      const option = document.createElement("a");
      option.className = "prnotes-dialog-result";
      option.id = `prnotes-dialog-result-${i}`;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.href = PrnotesDialog.url(docname);
      const heading = option.appendChild(document.createElement("span"));
      heading.className = "prnotes-dialog-title";
      heading.textContent = title;
      highlight.forEach((term) => _highlightText(heading, term, "highlighted"));
      list.appendChild(option);
      PrnotesDialog.snippet(option, parsed[1], highlight, run);
    });
    const all = document.createElement("a");
    all.className = "prnotes-dialog-result prnotes-dialog-all";
    all.id = "prnotes-dialog-result-all";
    all.setAttribute("role", "option");
    all.setAttribute("aria-selected", "false");
    all.href = `${document.documentElement.dataset.content_root}search.html?q=${encodeURIComponent(query)}`;
    all.textContent = results.length > PrnotesDialog.SHOWN ? `在搜索页查看全部 ${results.length} 个结果` : "在搜索页打开";
    list.appendChild(all);
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  },

  /** Add the snippet to a result when its page has arrived (unless the reader typed on). */
  snippet: (option, searchTerms, highlight, run) => {
    const url = option.href;
    if (!PrnotesDialog._pages.has(url)) PrnotesDialog._pages.set(url, fetch(url).then((r) => (r.ok ? r.text() : "")));
    PrnotesDialog._pages.get(url).then((html) => {
      if (!html || run !== PrnotesDialog._run) return;
      const summary = Search.makeSearchSummary(html, searchTerms, "");
      if (!summary) return;
      const text = document.createElement("span");
      text.className = "prnotes-dialog-snippet";
      text.textContent = summary.textContent;
      highlight.forEach((term) => _highlightText(text, term, "highlighted"));
      option.appendChild(text);
    });
  },

  select: (i) => {
    const {input, list} = PrnotesDialog;
    const options = [...list.children];
    options.forEach((o, n) => o.setAttribute("aria-selected", String(n === i)));
    PrnotesDialog.active = i;
    if (i >= 0) {
      input.setAttribute("aria-activedescendant", options[i].id);
      options[i].scrollIntoView({block: "nearest"});
    } else input.removeAttribute("aria-activedescendant");
  },

  key: (event) => {
    const options = PrnotesDialog.list.children;
    if (!options.length) return;
    const n = options.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      const at = PrnotesDialog.active;
      PrnotesDialog.select(at < 0 ? (step > 0 ? 0 : n - 1) : (at + step + n) % n);
    } else if (event.key === "Enter" && PrnotesDialog.active >= 0) {
      event.preventDefault();
      window.location.assign(options[PrnotesDialog.active].href);
    }
  },
};

/**
 * Put the functions above in place of searchtools.js's. They are not a
 * documented API of Sphinx: PRNOTES_SEARCH_REPLACED (name -> number of
 * parameters) and PRNOTES_SEARCH_READ, from prnotes.sphinxext._internals (which
 * also checks, when the build starts, that Sphinx's functions are the ones
 * this was written for), name what is replaced and read. When one of them is
 * missing or takes other parameters, a console error says so, nothing is
 * replaced and Sphinx's own search runs, with this file's query splitting.
 * Returns what is missing.
 */
const prnotesInstall = (search) => {
  const missing = [
    ...Object.entries(PRNOTES_SEARCH_REPLACED)
      .filter(([name, arity]) => typeof search[name] !== "function" || search[name].length !== arity)
      .map(([name]) => name),
    ...PRNOTES_SEARCH_READ.filter((name) => !(name in search)),
    ...(typeof Scorer === "undefined" ? ["Scorer"] : []),
    ...(typeof SearchResultKind === "undefined" ? ["SearchResultKind"] : []),
    ...(typeof _highlightText === "undefined" ? ["_highlightText"] : []),
  ];
  if (missing.length) {
    console.error(`prnotes: searchtools.js is not the one this search was written for (${missing.join(", ")}); Sphinx's own search is used`);
    return missing;
  }
  search._performSearch = PrnotesSearch.performSearch;
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

// null where there is no Search object.
const PRNOTES_SEARCH_MISSING = typeof Search === "undefined" ? null : prnotesInstall(Search);

if (PRNOTES_SEARCH_MISSING && !PRNOTES_SEARCH_MISSING.length) {
  const prnotesReady = () => {
    if (DOCUMENTATION_OPTIONS.pagename === "search") return;
    PrnotesSearch.highlightPage();
    PrnotesDialog.init();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", prnotesReady);
  else prnotesReady();
}
