/*
 * PR 精读笔记 search: the query's terms and the ranking, over an index view
 * (index.js's PrnotesIndex; the tests also run it over the whole index).
 *
 * PrnotesSearch.search(query, filters) is the one entry point: it loads
 * what the query needs and returns the ranked pages, best first, with the
 * terms that matched (for highlighting).
 */

// PRNOTES_HUB_WEIGHT: hub pages weigh less than notes where both match.
const PRNOTES_HUB_WEIGHT = 0.6;
// The weights of Sphinx's Scorer: a term in a title, in part of a title
// word, in the text, in part of a text word.
const PRNOTES_SCORER = {title: 15, partialTitle: 7, term: 5, partialTerm: 2};
// When some page has every term of the query, a page must cover this share
// of the query's rarity to be listed.
const PRNOTES_LEAST_SHARE = 0.5;
// What the bigrams of a word of the query count besides its best (see scores).
const PRNOTES_RUN_REST = 0.25;
// Words of a question that are not what the reader looks for.
const PRNOTES_QUESTION_WORDS = /怎么样|怎么|怎样|如何|为什么|为何|什么|哪些|哪个|哪里|是否|有没有|相关的?|关于/g;

/**
 * The words of a query (after its question words are out) that the index
 * has nowhere, given the terms that found pages (`kept`): an English word
 * or identifier none of whose terms (stop words aside) was found, and a
 * stretch of two or more CJK characters that no found bigram covers (a
 * bigram across two words, "的竞" of "浅克隆的竞态", leaves no such stretch).
 */
const prnotesMissingWords = (text, kept) => {
  const found = new Set(kept.flatMap(prnotesTypedTerms));
  const missing = [];
  for (const [run] of prnotesQueryText(text).matchAll(PRNOTES_RUN)) {
    if (run[0] < "\u3400") {
      const terms = prnotesTokens(run).filter((t) => !PRNOTES_STOPWORDS.has(t));
      if (terms.length && !terms.some((t) => found.has(t)) && !found.has(run.toLowerCase())) missing.push(run);
      continue;
    }
    const covered = [...run].map(() => false);
    if (run.length === 1) covered[0] = found.has(run);
    for (let i = 0; i + 1 < run.length; i++)
      if (found.has(run.slice(i, i + 2))) covered[i] = covered[i + 1] = true;
    let start = -1;
    for (let i = 0; i <= run.length; i++) {
      if (i < run.length && !covered[i]) {
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0 && i - start >= 2) missing.push(run.slice(start, i));
      start = -1;
    }
  }
  return [...new Set(missing)];
};

const PrnotesSearch = {
  MAX_RESULTS: 50,
  view: null,  // the index the ranking reads
  _lookups: new Map(),  // "partial?term" -> Map(page -> weight)
  matched: new Set(),  // the plain terms that found pages in the last search (for highlighting)

  /** Read `view` from now on. */
  use: (view) => {
    PrnotesSearch.view = view;
    PrnotesSearch.forget();
  },

  /** Forget what was worked out (after more of the index has loaded). */
  forget: () => {
    PrnotesSearch._lookups = new Map();
  },

  /**
   * Where a term occurs: page -> the best weight of the term there (title
   * 15, inside a title's term 7, text 5, inside a text's term 2). Inside
   * other terms only when `partial` (a word as typed) and only for terms
   * longer than two characters that the titles (or texts) lack whole, as
   * Sphinx's search does. A group (fold.js) is looked up as one term.
   */
  lookup: (term, partial = true, typed = null) => {
    if (prnotesIsGroup(term)) return prnotesGroupLookup(term, PrnotesSearch.lookup, typed);
    const key = `${partial ? 1 : 0}${term}`;
    const cached = PrnotesSearch._lookups.get(key);
    if (cached) {
      cached.matched.forEach((t) => PrnotesSearch.matched.add(t));
      return cached.best;
    }
    const view = PrnotesSearch.view;
    const misses = view.misses;
    const best = new Map();
    const matched = [];
    const note = (found, terms, weight) => {
      found.forEach((p) => best.set(p, Math.max(best.get(p) || 0, weight)));
      if (found.length) matched.push(terms);
    };
    const found = view.term(term);
    const weights = [[PRNOTES_SCORER.title, PRNOTES_SCORER.partialTitle], [PRNOTES_SCORER.term, PRNOTES_SCORER.partialTerm]];
    weights.forEach(([whole, part], slot) => {
      if (found && found[slot].length) note(found[slot], term, whole);
      else if (partial && term.length > 2)
        for (const other of view.inside(slot, term)) {
          const theirs = view.term(other);
          if (theirs) note(theirs[slot], other, part);
        }
    });
    matched.forEach((t) => PrnotesSearch.matched.add(t));
    if (view.misses === misses) PrnotesSearch._lookups.set(key, {best, matched});
    return best;
  },

  /**
   * The query's terms (fold.js's prnotesQueryTerms), as Sphinx's query
   * parser keeps them: stop words left out, lower case. A bigram that spans
   * two words of the query ("浅克隆的竞态" -> "的竞") usually occurs nowhere;
   * such terms, unknown to the index, are left out, unless no term is known.
   * Also the words typed that the index has nowhere (prnotesMissingWords).
   */
  analyse: (query, typed) => {
    const stripped = query.replace(PRNOTES_QUESTION_WORDS, " ");
    const all = prnotesQueryTerms(stripped, PrnotesSearch.view);
    const kept = all.filter((t) => PrnotesSearch.lookup(t, typed.has(t), typed).size > 0);
    const terms = kept.length ? kept : all;
    return {
      terms: [...new Set(terms.filter((t) => !PRNOTES_STOPWORDS.has(t.toLowerCase())).map((t) => t.toLowerCase()))],
      missing: prnotesMissingWords(stripped, kept),
    };
  },

  terms: (query, typed) => PrnotesSearch.analyse(query, typed).terms,

  /**
   * Ranked full-text search. A page's score is the sum over the query terms
   * it has of weight x rarity, with rarity 1 + ln(pages / pages with the
   * term), times the share of the query's rarity it covers; CJK bigrams of
   * the page that overlap in the query (长上 上下 下文 of 长上下文) are one word
   * of it, which counts its best bigram and PRNOTES_RUN_REST of the others;
   * a bigram that spans two words of the query (`text`, normalized: "获失"
   * of "捕获失败") is not asked of a page, nor counted in the rarity it
   * covers. When some page
   * has every term, a page must cover at least half of the rarity, so one
   * common word does not list the whole site. When none has every term,
   * the search is partial: every page with any term is listed, by the same
   * score, so those with the rarest terms come first, and never an empty
   * page while any term is found. Returns {rows: [page, score] pairs,
   * together: whether some page has every term}.
   */
  scores: (searchTerms, typed, text = "") => {
    const view = PrnotesSearch.view;
    const scores = new Map();
    const covered = new Map();  // page -> the rarity of the terms it has
    const counts = new Map();  // page -> how many terms it has
    let total = 0;
    let matched = 0;
    // A run of a page's CJK bigrams that overlap in the query (长上 上下 下文)
    // is one word of it: it counts its best bigram, and the others a little.
    const cjk = (t) => t.length === 2 && t[0] >= "\u3400" && t[1] >= "\u3400";
    const runs = new Map();  // page -> [last bigram, best, rest] of its current run
    const close = (p) => {
      const run = runs.get(p);
      if (run) scores.set(p, (scores.get(p) || 0) + run[1] + PRNOTES_RUN_REST * run[2]);
      runs.delete(p);
    };
    // A bigram of the query between the two that overlap it there, rarer
    // than both, spans two words ("获失" of "捕获失败"): the words on either
    // side are two words of the query, and it is a term a page need not
    // have, which adds its weight to a page that has the two side by side.
    const pages = (term) => PrnotesSearch.lookup(term, false).size;
    const joins = (term) => {
      const at = cjk(term) ? text.indexOf(term) : -1;
      if (at <= 0) return false;  // not in the typed text, or nothing before it
      const [left, right] = [text.slice(at - 1, at + 1), text.slice(at + 1, at + 3)];
      return cjk(left) && cjk(right) && pages(term) < pages(left) && pages(term) < pages(right);
    };
    searchTerms.forEach((term) => {
      const best = PrnotesSearch.lookup(term, typed.has(term), typed);
      const counted = !joins(term);
      if (!cjk(term) || !counted) [...runs.keys()].forEach(close);
      else [...runs.keys()].filter((p) => runs.get(p)[0][1] !== term[0] || !best.has(p)).forEach(close);
      if (!best.size) return;
      const idf = 1 + Math.log(view.pages / best.size);
      if (counted) {
        total += idf;
        matched++;
      }
      best.forEach((weight, p) => {
        const value = weight * idf;
        if (!counted || !cjk(term)) scores.set(p, (scores.get(p) || 0) + value);
        else {
          const run = runs.get(p);
          if (run) runs.set(p, [term, Math.max(run[1], value), run[2] + Math.min(run[1], value)]);
          else runs.set(p, [term, value, 0]);
        }
        if (!counted) return;
        covered.set(p, (covered.get(p) || 0) + idf);
        counts.set(p, (counts.get(p) || 0) + 1);
      });
    });
    [...runs.keys()].forEach(close);
    let together = false;
    counts.forEach((n) => (together = together || n === matched));
    const least = together ? PRNOTES_LEAST_SHARE : 0;
    const rows = [];
    scores.forEach((score, p) => {
      const share = covered.get(p) / total;
      if (share >= least) rows.push([p, score * share]);
    });
    return {rows, together};
  },

  /**
   * One row per page of scored (the rows of scores()), best first:
   * [page, score]. Notes are the answers;
   * hub pages (subsystems, reading and watch lists, tags, the PR index,
   * digests) only point at them, so they are listed only when no note
   * matches, and a hub page whose title a hub page above it has is left
   * out. With filters ({verdict, repo, subsystem}: the values the list
   * pages use), only the notes that have each. At most MAX_RESULTS rows;
   * each score at most the one above it.
   */
  rank: (scored, filters) => {
    const view = PrnotesSearch.view;
    const wanted = Object.entries(filters || {}).filter(([, value]) => value);
    let rows = scored.map(([p, score]) => {
      const note = view.isNote(p);
      return [note ? 0 : 1, Math.round(10 * score * (note ? 1 : PRNOTES_HUB_WEIGHT)) / 10, p];
    });
    if (wanted.length)
      rows = rows.filter(([hub, , p]) => !hub && wanted.every(([name, value]) => view.filterValue(name, p) === value));
    if (rows.some(([hub]) => !hub)) rows = rows.filter(([hub]) => !hub);
    rows.sort((a, b) => a[0] - b[0] || b[1] - a[1] || view.rank(a[2]) - view.rank(b[2]));
    const titles = new Set();
    rows = rows.filter(([hub, , p]) => {
      if (!hub) return true;
      const group = view.titleGroup(p);
      if (titles.has(group)) return false;
      titles.add(group);
      return true;
    });
    let above = Infinity;
    return rows.slice(0, PrnotesSearch.MAX_RESULTS).map(([, score, p]) => {
      above = Math.min(above, score);
      return [p, above];
    });
  },

  /**
   * The search as one computation over what is loaded (prnotesComplete runs
   * it until complete). `partial` says when no page has every word typed,
   * {missing: the words no page has}, and is null otherwise; `corrected`
   * lists the typos looked for as other words: [[word, terms]];
   * `translated` the English words looked for as the Chinese words the
   * dictionary gives them: [[word, Chinese words]].
   */
  compute: (query, filters) => {
    PrnotesSearch.matched = new Set();
    const typed = prnotesTypedWords(query);
    const {terms, missing} = PrnotesSearch.analyse(query, typed);
    const scored = PrnotesSearch.scores(terms, typed, prnotesQueryText(query));
    const rows = PrnotesSearch.rank(scored.rows, filters);
    const {together} = scored;
    const found = rows.length > 0;
    const partial = found && (!together || missing.length) ? {missing} : null;
    const alternatives = (mark) => terms.filter(prnotesIsGroup).map((group) => {
      const [typedAlt, ...others] = group.split("|");
      const found = others.filter((alt) => alt[0] === mark).map((alt) => prnotesAlternative(alt)[1]);
      return [prnotesTypedTerms(typedAlt), found];
    }).filter(([, found]) => found.length);
    const corrected = alternatives("?").map(([word, fixes]) => [word.join(" "), fixes.map((fix) => fix.join("+"))]);
    // A word as the reader typed it, and a Chinese word from its bigrams (整数+数点+点积: 整数点积).
    const asTyped = new Map([...typed].map((word) => [prnotesWordTerm(word, true), word]));
    const translated = alternatives("=").map(([word, found]) => [
      word.map((term) => asTyped.get(term) || term).join(" "),
      found.map((bigrams) => bigrams[0] + bigrams.slice(1).map((b) => b.slice(-1)).join("")),
    ]);
    return {query, terms, rows, matched: new Set(PrnotesSearch.matched), partial, corrected, translated};
  },

  /** Search: {query, terms, rows: [[page, score]], matched, partial, corrected, translated}. */
  search: (query, filters = {}) =>
    prnotesComplete(PrnotesSearch.view, () => PrnotesSearch.compute(query, filters), PrnotesSearch.forget),

  /** The query's terms, as the ranking takes them (for tests and the benchmark). */
  split: (query) =>
    prnotesComplete(PrnotesSearch.view, () => PrnotesSearch.terms(query, prnotesTypedWords(query)), PrnotesSearch.forget),

  /** The rows of pages (see PrnotesIndex.page), loading their shards. */
  pages: (pages) =>
    prnotesComplete(PrnotesSearch.view, () => pages.map((p) => PrnotesSearch.view.page(p))),
};
