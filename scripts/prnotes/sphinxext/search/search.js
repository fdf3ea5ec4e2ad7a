/*
 * PR 精读笔记 search: query splitting, ranking and highlighting.
 *
 * Inserted at the end of language_data.js, which loads after searchtools.js.
 * prnotesTokens() must split exactly as tokens.py does (the tests compare
 * them in a browser).
 */

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
  for (const [run] of text.normalize("NFKC").matchAll(PRNOTES_RUN)) {
    const terms = [];
    if (run[0] >= "\u3400") {
      if (run.length === 1) terms.push(run);
      for (let i = 0; i + 1 < run.length; i++) terms.push(run.slice(i, i + 2));
    } else {
      terms.push(prnotesAsciiTerm(run));
      for (const part of run.split(PRNOTES_PART_SEP)) {
        const pieces = part.split(PRNOTES_CAMEL);
        terms.push(prnotesAsciiTerm(part));
        if (pieces.length > 1) terms.push(...pieces.map(prnotesAsciiTerm));
      }
    }
    terms.filter((t) => t).forEach((t) => out.add(t));
  }
  return [...out];
};

const PrnotesSearch = {
  terms: [],  // the stemmed terms of the current query
  _cache: null,

  stem: (term) => new Stemmer().stemWord(term.toLowerCase()),

  _has: (map, key) => Object.prototype.hasOwnProperty.call(map, key),

  /** Is the (stemmed) term in the index, whole or, as searchtools.js allows, in part? */
  known: (index, term) => {
    if (PrnotesSearch._has(index.terms, term) || PrnotesSearch._has(index.titleterms, term)) return true;
    if (term.length <= 2) return false;
    const inKeys = (map) => Object.keys(map).some((key) => key.includes(term));
    return inKeys(index.terms) || inKeys(index.titleterms);
  },

  /**
   * The query's terms. searchtools.js requires every term to match, so a
   * bigram that spans two words of the query ("浅克隆的竞态" -> "的竞") and
   * occurs nowhere would empty the results: terms the index does not know
   * are left out, unless none is known.
   */
  split: (query) => {
    const all = prnotesTokens(query.replace(PRNOTES_QUESTION_WORDS, " "));
    const index = typeof Search !== "undefined" ? Search._index : null;
    let kept = all;
    if (index) {
      kept = all.filter((t) => PrnotesSearch.known(index, PrnotesSearch.stem(t)));
      if (!kept.length) kept = all;
    }
    PrnotesSearch.terms = kept.map(PrnotesSearch.stem);
    PrnotesSearch._cache = null;
    return kept;
  },

  /**
   * file index -> score. Each term adds, for each file that has it, the
   * weight of where it is (Scorer: title 15, part of a title word 7, body 5,
   * part of a body word 2) times its rarity, 1 + ln(files / files with it).
   */
  _scores: () => {
    const index = Search._index;
    const fileCount = index.docnames.length;
    const scores = new Map();
    for (const term of new Set(PrnotesSearch.terms)) {
      const best = new Map();  // file -> best weight of this term in it
      const note = (files, weight) => {
        if (files === undefined) return;
        (typeof files === "number" ? [files] : files).forEach((f) =>
          best.set(f, Math.max(best.get(f) || 0, weight)));
      };
      note(PrnotesSearch._has(index.titleterms, term) ? index.titleterms[term] : undefined, Scorer.title);
      note(PrnotesSearch._has(index.terms, term) ? index.terms[term] : undefined, Scorer.term);
      if (term.length > 2) {
        for (const [map, weight] of [[index.titleterms, Scorer.partialTitle], [index.terms, Scorer.partialTerm]]) {
          if (PrnotesSearch._has(map, term)) continue;
          for (const key of Object.keys(map)) if (key.includes(term)) note(map[key], weight);
        }
      }
      const idf = 1 + Math.log(fileCount / Math.max(best.size, 1));
      best.forEach((weight, f) => scores.set(f, (scores.get(f) || 0) + weight * idf));
    }
    return scores;
  },

  /** Scorer.score hook: rank by the sum of the terms' weights, titles first. */
  score: (result) => {
    const [docname, , anchor, , score, , kind] = result;
    if (kind !== "text" && kind !== "title") return score;
    if (PrnotesSearch._cache === null) {
      const index = Search._index;
      PrnotesSearch._cache = {
        scores: PrnotesSearch._scores(),
        files: new Map(index.docnames.map((d, i) => [d, i])),
      };
    }
    const { scores, files } = PrnotesSearch._cache;
    const termScore = scores.get(files.get(docname)) || 0;
    // A whole-title match (kind "title") keeps its own score on top.
    return Math.round(10 * (termScore + (kind === "title" && !anchor ? score : 0))) / 10;
  },

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

if (typeof Scorer !== "undefined") Scorer.score = PrnotesSearch.score;

if (typeof Search !== "undefined") {
  const parseQuery = Search._parseQuery;
  Search._parseQuery = (query) => {
    const parsed = parseQuery(query);
    parsed[3] = PrnotesSearch.highlightTerms(query, parsed[3]);
    if (typeof SPHINX_HIGHLIGHT_ENABLED !== "undefined" && SPHINX_HIGHLIGHT_ENABLED)
      localStorage.setItem("sphinx_highlight_terms", [...parsed[3]].join(" "));
    return parsed;
  };
}
