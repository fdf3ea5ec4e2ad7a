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
// Words of a question that are not what the reader looks for.
const PRNOTES_QUESTION_WORDS = /怎么样|怎么|怎样|如何|为什么|为何|什么|哪些|哪个|哪里|是否|有没有|相关的?|关于/g;

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
   */
  terms: (query, typed) => {
    const view = PrnotesSearch.view;
    const all = prnotesQueryTerms(query.replace(PRNOTES_QUESTION_WORDS, " "), view);
    const kept = all.filter((t) => PrnotesSearch.lookup(t, typed.has(t), typed).size > 0);
    const terms = kept.length ? kept : all;
    return [...new Set(terms.filter((t) => !PRNOTES_STOPWORDS.has(t.toLowerCase())).map((t) => t.toLowerCase()))];
  },

  /**
   * Ranked full-text search. A page's score is the sum over the query terms
   * it has of weight x rarity, with rarity 1 + ln(pages / pages with the
   * term), times the share of the query's rarity it covers. A page must
   * cover at least half of it, so one wrong word does not empty the results
   * and one common word does not list the whole site. Returns [page, score]
   * pairs.
   */
  scores: (searchTerms, typed) => {
    const view = PrnotesSearch.view;
    const scores = new Map();
    const covered = new Map();
    let total = 0;
    for (const term of searchTerms) {
      const best = PrnotesSearch.lookup(term, typed.has(term), typed);
      if (!best.size) continue;
      const idf = 1 + Math.log(view.pages / best.size);
      total += idf;
      best.forEach((weight, p) => {
        scores.set(p, (scores.get(p) || 0) + weight * idf);
        covered.set(p, (covered.get(p) || 0) + idf);
      });
    }
    const found = [];
    scores.forEach((score, p) => {
      const share = covered.get(p) / total;
      if (share >= 0.5) found.push([p, score * share]);
    });
    return found;
  },

  /**
   * One row per page, best first: [page, score]. Notes are the answers;
   * hub pages (subsystems, reading and watch lists, tags, the PR index,
   * digests) only point at them, so they are listed only when no note
   * matches, and a hub page whose title a hub page above it has is left
   * out. With filters ({verdict, repo, subsystem}: the values the list
   * pages use), only the notes that have each. At most MAX_RESULTS rows;
   * each score at most the one above it.
   */
  rank: (searchTerms, typed, filters) => {
    const view = PrnotesSearch.view;
    const wanted = Object.entries(filters || {}).filter(([, value]) => value);
    let rows = PrnotesSearch.scores(searchTerms, typed).map(([p, score]) => {
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

  /** The search as one computation over what is loaded (prnotesComplete runs it until complete). */
  compute: (query, filters) => {
    PrnotesSearch.matched = new Set();
    const typed = prnotesTypedWords(query);
    const terms = PrnotesSearch.terms(query, typed);
    const rows = PrnotesSearch.rank(terms, typed, filters);
    return {query, terms, rows, matched: new Set(PrnotesSearch.matched)};
  },

  /** Search: {query, terms, rows: [[page, score]], matched}. */
  search: (query, filters = {}) =>
    prnotesComplete(PrnotesSearch.view, () => PrnotesSearch.compute(query, filters), PrnotesSearch.forget),

  /** The query's terms, as the ranking takes them (for tests and the benchmark). */
  split: (query) =>
    prnotesComplete(PrnotesSearch.view, () => PrnotesSearch.terms(query, prnotesTypedWords(query)), PrnotesSearch.forget),

  /** The rows of pages (see PrnotesIndex.page), loading their shards. */
  pages: (pages) =>
    prnotesComplete(PrnotesSearch.view, () => pages.map((p) => PrnotesSearch.view.page(p))),
};
