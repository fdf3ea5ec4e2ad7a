/*
 * PR 精读笔记 search: the language side of queries.
 *
 * The first part of the search script (scripts.py), after the data it
 * needs: PRNOTES_TRADITIONAL / PRNOTES_SIMPLIFIED (tradsimp.json, from
 * OpenCC), PRNOTES_GLOSSARY (glossary.toml) and PRNOTES_STOPWORDS (the
 * search language's stop words).
 *
 * - prnotesTokens splits text into search terms exactly as tokens.py's
 *   tokens() does, with prnotesNormalize and prnotesFold, which fold text as
 *   normalize() and fold() do: the browser tests compare both sides on the
 *   same strings.
 * - prnotesUnits is glossary.py's phrase_units.
 * - prnotesQueryTerms turns what the reader typed into the query's terms:
 *   PR references written any way, glossary terms and the pairs the notes
 *   make (pairs.py) in both directions, English words through the
 *   dictionary's Chinese for them (pairs.py, CC-CEDICT),
 *   identifiers typed without their "_" or with spaces, joined words the
 *   index has apart, and typos (the index's side of these, index.js: near,
 *   pieces, links, translations). A term that stands
 *   for several ways of writing one thing is a group (see prnotesGroup):
 *   the ranking (rank.js) scores it as one term (prnotesGroupLookup), so an
 *   expansion never outweighs what was typed.
 */

const PRNOTES_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
const PRNOTES_RUN = new RegExp(
  `[A-Za-z0-9_]+(?:[.\\-][A-Za-z0-9_]+)*|[${PRNOTES_CJK}]+`, "g");
const PRNOTES_PART_SEP = /[._\-]+/;
const PRNOTES_CAMEL = /(?<=[a-z0-9])(?=[A-Z][a-z])/;
const PRNOTES_DIGITS = /^[0-9]+$/;
const PRNOTES_JOINED = /[_\-]+/;

const PRNOTES_HANS = new Map(
  [...PRNOTES_TRADITIONAL].map((c, i) => [c, PRNOTES_SIMPLIFIED[i]]));
const PRNOTES_HANS_RE = new RegExp(`[${PRNOTES_TRADITIONAL}]`, "g");
const PRNOTES_LETTERS = /^[a-z]+$/;
const PRNOTES_KEEP_S = ["ss", "us", "is", "as"];

/** NFKC, then traditional characters folded to simplified ones (tokens.normalize). */
const prnotesNormalize = (text) =>
  text.normalize("NFKC").replace(PRNOTES_HANS_RE, (c) => PRNOTES_HANS.get(c));

/** Plain English inflection off a lower-case word (tokens.fold, which documents the rule). */
const prnotesFold = (word) => {
  if (word.length < 4 || PRNOTES_STOPWORDS.has(word) || !PRNOTES_LETTERS.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) word = word.slice(0, -3) + "y";
  else if (word.endsWith("s") && !PRNOTES_KEEP_S.some((end) => word.endsWith(end))) word = word.slice(0, -1);
  for (const suffix of ["ing", "ed"]) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3 && !word.endsWith("eed")) {
      word = word.slice(0, -suffix.length);
      const last = word[word.length - 1];
      if (word.length >= 4 && last === word[word.length - 2] && !"lsz".includes(last)) word = word.slice(0, -1);
      break;
    }
  }
  if (word.endsWith("e") && word.length >= 4) word = word.slice(0, -1);
  return word;
};

const prnotesAsciiTerm = (word) => {
  if (PRNOTES_DIGITS.test(word)) return word.length >= 2 ? `#${word}` : null;
  return word.length >= 2 ? word.toLowerCase() : null;
};

/** An ASCII word's term (tokens._ascii_term): lower case, folded unless it is an identifier. */
const prnotesWordTerm = (word, folded) => {
  const term = prnotesAsciiTerm(word);
  return term && folded ? prnotesFold(term) : term;
};

/** Search terms of a text, in order, without repeats (tokens.tokens). */
const prnotesTokens = (text) => {
  const out = new Set();
  for (const [run] of prnotesNormalize(text).matchAll(PRNOTES_RUN)) {
    const terms = [];
    if (run[0] >= "\u3400") {
      if (run.length === 1) terms.push(run);
      for (let i = 0; i + 1 < run.length; i++) terms.push(run.slice(i, i + 2));
    } else {
      const parts = run.split(PRNOTES_PART_SEP);
      terms.push(prnotesWordTerm(run, parts.length === 1 && run.split(PRNOTES_CAMEL).length === 1));
      for (const piece of run.split(".")) {
        const pieces = piece.split(PRNOTES_JOINED);
        if (pieces.length > 1) terms.push(prnotesWordTerm(pieces.join(""), true));
      }
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

/**
 * The words as typed (lower case, not folded): each ASCII run, its parts and
 * humps. A typed word may match inside the index's terms (`pybind` finds
 * `pybind11`); a folded form or a glossary expansion matches whole terms
 * only (`rac`, from "race", must not find `trac` of "tracing").
 */
const prnotesTypedWords = (text) => {
  const out = new Set();
  for (const [run] of prnotesNormalize(text).matchAll(PRNOTES_RUN)) {
    if (run[0] >= "\u3400") continue;
    out.add(run.toLowerCase());
    for (const part of run.split(PRNOTES_PART_SEP))
      for (const piece of [part, ...part.split(PRNOTES_CAMEL)]) out.add(piece.toLowerCase());
  }
  return out;
};

/** glossary.phrase_units: CJK characters and folded ASCII word parts, with where each run is. */
const prnotesUnits = (normalized) => {
  const units = [];
  for (const match of normalized.matchAll(PRNOTES_RUN)) {
    const [run] = match;
    const [start, end] = [match.index, match.index + run.length];
    if (run[0] >= "\u3400") {
      [...run].forEach((c, i) => units.push({unit: c, start: start + i, end: start + i + 1}));
      continue;
    }
    for (const part of run.split(PRNOTES_PART_SEP))
      for (const piece of part.split(PRNOTES_CAMEL)) {
        const word = piece.toLowerCase();
        if (word.length < 2 || PRNOTES_STOPWORDS.has(word)) continue;
        units.push({unit: PRNOTES_DIGITS.test(word) ? `#${word}` : prnotesFold(word), start, end});
      }
  }
  return units;
};

// --- groups -----------------------------------------------------------------

// A group term is "alternative|alternative|…", each alternative the terms of
// one way of writing the thing joined by "+". The first alternative is what
// was typed. A leading mark says where another alternative comes from, and
// what it weighs against what was typed (PRNOTES_ALTERNATIVE_WEIGHTS): none
// for another spelling the index has (an identifier joined or split, 1),
// "~" for the glossary's other side (0.7), "^" for a pair the notes
// themselves make (pairs.py, 0.6), "?" for a correction of a typo (0.6),
// "=" for a Chinese word the dictionary gives an English word (pairs.py,
// CC-CEDICT; 0.4). Terms never hold these characters.
const PRNOTES_ALTERNATIVE_WEIGHTS = {"": 1, "~": 0.7, "^": 0.6, "?": 0.6, "=": 0.4};
const PRNOTES_EXPANSION_WEIGHT = PRNOTES_ALTERNATIVE_WEIGHTS["~"];
const PRNOTES_MARK = /^[~^?=]/;
const PRNOTES_MAX_VARIANTS = 20;

/** alternatives: [[terms, mark]], the first what was typed; a mark of true is the glossary's "~". */
const prnotesGroup = (alternatives) => {
  const seen = new Set();
  const out = [];
  for (const [terms, mark] of alternatives) {
    const key = terms.join("+");
    if (!terms.length || seen.has(key)) continue;
    seen.add(key);
    out.push((mark === true ? "~" : mark || "") + key);
  }
  return out.join("|");
};

const prnotesIsGroup = (term) => term.includes("|");

/** An alternative's mark ("", "~", "^", "?" or "=") and its terms. */
const prnotesAlternative = (alt) => {
  const mark = PRNOTES_MARK.test(alt) ? alt[0] : "";
  return [mark, alt.slice(mark.length).split("+")];
};

/** The plain terms of a term or group: for highlighting and snippets. */
const prnotesTermWords = (term) =>
  prnotesIsGroup(term) ? term.split("|").flatMap((alt) => prnotesAlternative(alt)[1]) : [term];

/** What was typed of a term or group: the term, or the group's first alternative. */
const prnotesTypedTerms = (term) => (prnotesIsGroup(term) ? prnotesAlternative(term.split("|")[0])[1] : [term]);

/**
 * Where a group occurs: file -> weight. The first alternative is what was
 * typed: a file needs at least half of its terms (as the ranking asks of a
 * whole query) and weighs the sum of their weights, as if they were terms
 * of the query. Another alternative needs all of its terms and weighs their
 * mean times the number of typed terms, times its mark's weight
 * (PRNOTES_ALTERNATIVE_WEIGHTS). The best alternative counts. `typed` holds
 * the words as typed (prnotesTypedWords): only those, and other spellings
 * the index has, may match inside other terms.
 */
const prnotesGroupLookup = (group, lookup, typed) => {
  const best = new Map();
  const alternatives = group.split("|");
  const typedCount = alternatives[0].split("+").length;
  alternatives.forEach((alt, i) => {
    const [mark, terms] = prnotesAlternative(alt);
    // A group weighs as one term: the mean weight of its terms found, not their sum.
    const factor = i === 0 ? 1 / typedCount : PRNOTES_ALTERNATIVE_WEIGHTS[mark] / terms.length;
    const sums = new Map();
    const counts = new Map();
    // What was typed may match inside terms; other ways of writing it are
    // the index's own terms; glossary sides, pairs and corrections match
    // whole terms only.
    const partial = (term) => (i === 0 ? Boolean(typed && typed.has(term)) : !mark);
    for (const term of terms)
      lookup(term, partial(term)).forEach((weight, f) => {
        sums.set(f, (sums.get(f) || 0) + weight);
        counts.set(f, (counts.get(f) || 0) + 1);
      });
    counts.forEach((n, f) => {
      if (i === 0 ? 2 * n < terms.length : n < terms.length) return;
      const score = sums.get(f) * factor;
      if (score > (best.get(f) || 0)) best.set(f, score);
    });
  });
  return best;
};

// --- the glossary -------------------------------------------------------------

/** Every phrase of the glossary: its units, what it expands to, and the mark of its expansions. */
const prnotesGlossaryPhrases = (() => {
  let phrases = null;
  return () => {
    if (phrases) return phrases;
    const byKey = new Map();  // units -> {units, expansions: Set of phrases, mark}
    const add = (phrase, other) => {
      const units = prnotesUnits(prnotesNormalize(phrase)).map((u) => u.unit);
      const key = units.join(" ");
      if (!byKey.has(key)) byKey.set(key, {units, expansions: new Set(), mark: "~"});
      byKey.get(key).expansions.add(other);
    };
    for (const [english, wordings] of PRNOTES_GLOSSARY)
      for (const wording of wordings) {
        add(english, wording);
        add(wording, english);
      }
    phrases = [...byKey.values()].sort((a, b) => b.units.length - a.units.length);
    return phrases;
  };
})();

/** The glossary's Chinese wordings of its English terms of one word: folded word -> [wordings]. */
const prnotesGlossaryWords = (() => {
  let words = null;
  return () => {
    if (words) return words;
    words = new Map();
    for (const {units, expansions} of prnotesGlossaryPhrases())
      if (units.length === 1 && units[0] < "\u3400")
        words.set(units[0], [...expansions].filter((phrase) => /[\u3400-\u9fff]/.test(phrase)).sort());
    return words;
  };
})();

/**
 * The pairs the notes make (pairs.py) that may be in the query: each
 * phrase stored under one of the query's terms (`links(term)`: [[phrase,
 * [partners], mark]]), as a phrase of the glossary is, with the mark "^";
 * the notes' Chinese words with the English words the dictionary gives
 * them (pairs.english_for) come with the mark "=".
 */
const prnotesDerivedPhrases = (norm, links) => {
  const byKey = new Map();
  for (const term of prnotesTokens(norm))
    for (const [phrase, partners, mark = "^"] of links(term) || []) {
      const units = prnotesUnits(prnotesNormalize(phrase)).map((u) => u.unit);
      const key = `${mark} ${units.join(" ")}`;
      if (!units.length) continue;
      if (!byKey.has(key)) byKey.set(key, {units, expansions: new Set(), mark});
      partners.forEach((other) => byKey.get(key).expansions.add(other));
    }
  // A pair the notes make before the dictionary's translation of the same words.
  return [...byKey.values()].sort((a, b) => (a.mark === b.mark ? 0 : a.mark === "^" ? -1 : 1));
};

/**
 * The English words of the query that the dictionary translates
 * (pairs.py, CC-CEDICT): each word of letters stored with Chinese words
 * (`translations(term)`: [Chinese words]) is a phrase of one unit, as a
 * phrase of the glossary is, with the mark "=". An identifier's parts match nothing
 * (prnotesGlossaryMatches).
 */
const prnotesDictionaryPhrases = (norm, translations) => {
  const out = [];
  for (const term of prnotesTokens(norm)) {
    if (!PRNOTES_LETTERS.test(term)) continue;
    const words = translations(term) || [];
    if (words.length) out.push({units: [term], expansions: new Set(words), mark: "="});
  }
  return out;
};

/**
 * The Chinese words the dictionary gives every one of `words` (typed apart,
 * lower case), for words the index has joined ("dot product": dot_product,
 * a part of an identifier) that are also one thing the notes write in
 * Chinese (点积, which the dictionary gives "dot" and "product"). None when
 * a word is not one the dictionary translates.
 */
const prnotesSharedTranslations = (words, translations) => {
  let shared = null;
  for (const word of words) {
    const term = prnotesWordTerm(word, true);
    const found = term && PRNOTES_LETTERS.test(term) ? translations(term) || [] : [];
    shared = shared ? shared.filter((w) => found.includes(w)) : [...found];
    if (!shared.length) return [];
  }
  return shared || [];
};
const PRNOTES_MAX_JOINED = 4;  // Chinese wordings of words typed apart, at most

/**
 * Chinese wordings of `words` (typed apart, lower case) made of the words'
 * own: the words cut, longest first, into stretches the dictionary gives a
 * shared Chinese word (prnotesSharedTranslations), their words written one
 * after the other ("integer dot product": 整数 + 点积, 整数点积; "prefix
 * cache": 前缀缓存; "pipeline parallel", the glossary's 流水线: 流水线并行).
 * None when a word has no Chinese word; at most PRNOTES_MAX_JOINED, the
 * first words first.
 */
const prnotesJoinedTranslations = (words, translations) => {
  let wordings = [""];
  for (let i = 0, end; i < words.length; i = end) {
    let shared = [];
    for (end = words.length; end > i; end--) {
      shared = prnotesSharedTranslations(words.slice(i, end), translations);
      if (shared.length) break;
    }
    if (!shared.length) return [];
    wordings = wordings.flatMap((before) => shared.map((word) => before + word)).slice(0, PRNOTES_MAX_JOINED);
  }
  return wordings.filter(Boolean);
};

/**
 * The glossary phrases in the query (and `extra` phrases, after the
 * glossary's of the same length), longest first and not overlapping:
 * [{start, end, expansions, mark}], start and end in the normalized query.
 * Words of identifiers and file names ("_fused_norm_rope_kernel") are not
 * English and match nothing.
 */
const prnotesGlossaryMatches = (norm, extra = []) => {
  const units = prnotesUnits(norm);
  // The units of one ASCII run share its start: the run is tested once.
  const identifiers = new Map();
  const taken = units.map((u) => {
    if (!identifiers.has(u.start)) identifiers.set(u.start, PRNOTES_IDENTIFIER.test(norm.slice(u.start, u.end)));
    return identifiers.get(u.start);
  });
  const found = [];
  const phrases = [...prnotesGlossaryPhrases(), ...extra].sort((a, b) => b.units.length - a.units.length);
  // The phrases in that order, each taking the places it matches that no
  // phrase before it took. One length at a time, each place of the query is
  // looked up once among the phrases of that length (the first with those
  // units): the work is the query's length times the phrases' lengths, not
  // times their number.
  for (let k = 0; k < phrases.length; ) {
    const n = phrases[k].units.length;
    const byUnits = new Map();
    for (; k < phrases.length && phrases[k].units.length === n; k++) {
      const key = phrases[k].units.join(" ");
      if (!byUnits.has(key)) byUnits.set(key, k);
    }
    if (!n) continue;
    const hits = [];
    for (let i = 0; i + n <= units.length; i++) {
      const at = byUnits.get(units.slice(i, i + n).map((u) => u.unit).join(" "));
      if (at !== undefined) hits.push([at, i]);
    }
    hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [at, i] of hits) {
      if (taken.slice(i, i + n).some((t) => t)) continue;
      taken.fill(true, i, i + n);
      const phrase = phrases[at];
      found.push({start: units[i].start, end: units[i + n - 1].end, expansions: phrase.expansions, mark: phrase.mark});
    }
  }
  return found.sort((a, b) => a.start - b.start);
};

// --- variants -------------------------------------------------------------------

// PR references as readers write them: "PR52810", "pr 52810", "PR #52810",
// "vllm#52763", "vllm-project/vllm#52763", ".../pull/52763": all "#52810".
// Each pattern starts only where a run of its characters starts, and never
// tries one stretch of text two ways, so a long query is read once.
const PRNOTES_PR_URL = /\/(?:pull|issues)\/(?=[0-9]{2})/gi;
const PRNOTES_PR_REFS = [
  // A URL: what comes before the last "/pull/" of a stretch without spaces.
  [/\S+/g, (stretch) => {
    let end = -1;
    for (const match of stretch.matchAll(PRNOTES_PR_URL)) end = match.index + match[0].length;
    return end < 0 ? stretch : `#${stretch.slice(end)}`;
  }],
  [/(?<![A-Za-z0-9_.\-])[A-Za-z0-9_.\-]+(?:\/[A-Za-z0-9_.\-]+)?#(?=[0-9]{2})/g, "#"],
  [/(?<![A-Za-z0-9_])(?:pr|pull request|pull)\s*(?:[#:]\s*)?(?=[0-9]{2})/gi, "#"],
];

const prnotesSquash = (term) => term.replace(/[._\-]/g, "");
const PRNOTES_IDENTIFIER = /[_.]|[a-z0-9][A-Z]/;

/**
 * The terms of a way of writing a glossary term, all of which a note must
 * have: a word joined by "-" counts by its parts ("multi-node").
 */
const prnotesPhraseTerms = (phrase) => {
  const terms = prnotesTokens(phrase);
  return terms.filter((t) => !PRNOTES_PART_SEP.test(t) || t.split(PRNOTES_PART_SEP).every((p) => p.length < 2));
};

/**
 * Other ways of writing a word that the index lacks (`whole`: lower case,
 * `squashed`: without "_ . -"), best first, as [terms, mark] alternatives:
 * the index's terms that hold it ("nonehash" in none_hash); else the two
 * words of the index it is made of ("tensorcore": tensor + core); and the
 * index's terms within the edits a typo may have made (`keys.near`,
 * index.js's prnotesNear: "schedular" -> scheduler), marked "?".
 */
const prnotesVariants = (whole, squashed, keys) => {
  const misses = keys.misses;
  const found = keys.containing(squashed);
  // Not loaded yet: the next pass, which has it, goes on (and loads no more than it needs).
  if (keys.misses !== misses) return [];
  if (found.length) {
    found.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    return found.slice(0, PRNOTES_MAX_VARIANTS).map((key) => [[key], ""]);
  }
  const out = keys.pieces(squashed).map((pair) => [pair, ""]);
  const near = new Map();
  for (const form of new Set([whole, prnotesFold(whole)]))
    for (const [term, distance] of keys.near(form, prnotesFormEdits(whole, form)))
      if (!near.has(term) || near.get(term) > distance) near.set(term, distance);
  const closest = Math.min(...near.values());
  const corrections = [...near].filter(([, d]) => d === closest).map(([term]) => term).sort();
  return [...out, ...corrections.slice(0, PRNOTES_MAX_CORRECTIONS).map((term) => [[term], "?"])];
};
const PRNOTES_MAX_CORRECTIONS = 8;

/**
 * The query's terms: a term for each word as prnotesTokens splits it, except
 * that these become groups, in this order:
 * 1. words typed apart that the index has joined by "_" or unspaced: "none
 *    hash", "gpu sync allowed", with the other wordings the words have: the
 *    glossary's and the notes' pairs for the whole phrase ("kv cache": KV
 *    缓存), the Chinese words the dictionary gives each of them, marked "="
 *    ("dot product": 点积), and prnotesJoinedTranslations (整数点积);
 * 2. glossary phrases, either side, with the other side as expansions, the
 *    pairs the notes make (pairs.py), marked "^", and the English words the
 *    dictionary translates (pairs.py, CC-CEDICT), marked "=";
 * 3. a word the index does not have, nor a term holding it (as typed or
 *    with its inflection folded), and each such part of an identifier:
 *    prnotesVariants (an identifier typed without its "_ . -", "nonehash",
 *    or with other ones, "none-hash"; a joined word the index has apart; a
 *    typo).
 * `keys` answers what the index holds (index.js's PrnotesIndex: known(term),
 * whether a term is one of the index's or inside one; containing(s), the
 * index's terms that have s once "_ . -" are taken out; pieces(s) and
 * near(word), see prnotesVariants; links(term), the pairs stored under a
 * term; translations(term), the dictionary's Chinese words for a word), or
 * is null: then only the glossary is used.
 */
/** A query normalized (prnotesNormalize), its PR references written "#N". */
const prnotesQueryText = (query) => {
  let text = query;
  for (const [pattern, replacement] of PRNOTES_PR_REFS) text = text.replace(pattern, replacement);
  return prnotesNormalize(text);
};

const prnotesQueryTerms = (query, keys) => {
  const norm = prnotesQueryText(query);
  let masked = norm;  // the query without what has become a group
  const groups = [];
  const consumed = new Set();  // terms now in a group
  // Blank out what has become a group, once a step has found its groups.
  const spans = [];
  const blank = () => {
    const parts = [];
    let at = 0;
    for (const [start, end] of spans.sort((x, y) => x[0] - y[0])) {
      parts.push(masked.slice(at, start), " ".repeat(end - start));
      at = end;
    }
    masked = parts.join("") + masked.slice(at);
    spans.length = 0;
  };
  const group = (start, end, alternatives) => {
    const typed = prnotesTokens(norm.slice(start, end));
    typed.forEach((t) => consumed.add(t));
    // Sphinx leaves stop words out of a query; in a group they stay out too.
    const kept = typed.filter((t) => !PRNOTES_STOPWORDS.has(t));
    groups.push(prnotesGroup([[kept, ""], ...alternatives]));
    spans.push([start, end]);
  };
  if (keys)
    for (const seq of [...masked.matchAll(/(?<![A-Za-z0-9])[A-Za-z0-9]+(?:\s+[A-Za-z0-9]+)+/g)]) {
      const words = [...seq[0].matchAll(/[A-Za-z0-9]+/g)];
      for (let i = 0; i < words.length - 1; i++) {
        for (let j = Math.min(words.length, i + 4); j >= i + 2; j--) {
          const parts = words.slice(i, j).map((w) => w[0].toLowerCase());
          const joined = [parts.join("_"), parts.join("")].find((t) => keys.known(t));
          if (!joined) continue;
          const end = seq.index + words[j - 1].index + words[j - 1][0].length;
          const start = seq.index + words[i].index;
          // The other wordings the words have without the identifier: the glossary's and
          // the notes' pairs for the whole phrase, and the dictionary's.
          const span = norm.slice(start, end);
          const whole = prnotesGlossaryMatches(span, prnotesDerivedPhrases(span, (term) => keys.links(term)))
            .filter((m) => m.start === 0 && m.end === span.length);
          // A word's Chinese: the glossary's for it alone, then the dictionary's.
          const translations = (term) => [...(prnotesGlossaryWords().get(term) || []), ...(keys.translations(term) || [])];
          const counted = parts.filter((w) => !PRNOTES_STOPWORDS.has(w));  // "out of memory": memory
          const shared = prnotesSharedTranslations(counted, translations);
          group(start, end, [
            [[joined], ""],
            ...whole.flatMap((m) => [...m.expansions].sort().map((phrase) => [prnotesPhraseTerms(phrase), m.mark])),
            ...[...shared, ...prnotesJoinedTranslations(counted, translations)].map((word) => [prnotesPhraseTerms(word), "="]),
          ]);
          i = j - 1;
          break;
        }
      }
    }
  blank();
  const derived = keys
    ? [...prnotesDerivedPhrases(masked, (term) => keys.links(term)), ...prnotesDictionaryPhrases(masked, (term) => keys.translations(term))]
    : [];
  for (const match of prnotesGlossaryMatches(masked, derived)) {
    const expansions = [...match.expansions].sort().map((phrase) => [prnotesPhraseTerms(phrase), match.mark]);
    group(match.start, match.end, expansions);
  }
  blank();
  if (keys)
    for (const [run] of masked.matchAll(PRNOTES_RUN)) {
      if (run[0] >= "\u3400") continue;
      // [lower case, squashed] of a word the index lacks (and has no term
      // holding); null when it has it, or when what says so is not loaded yet.
      const unknown = (word) => {
        const whole = word.toLowerCase();
        const squashed = prnotesSquash(whole);
        const misses = keys.misses;
        // The word is looked up as its folded form, inside other terms only as typed.
        const folded = prnotesFold(whole);
        const lacks = squashed.length >= 4 && !(folded === whole ? keys.known(whole) : keys.term(folded));
        return lacks && keys.misses === misses ? [whole, squashed] : null;
      };
      const own = !PRNOTES_DIGITS.test(run) && unknown(run);  // a number is a PR's, not a typo
      if (!own) continue;
      // The word; when the whole has no variant, each part of an identifier the index lacks.
      const pieces = run.split(PRNOTES_PART_SEP).flatMap((part) => part.split(PRNOTES_CAMEL));
      const words = [[run, prnotesTokens(run)[0], own]];  // the run's own term, folded if a plain word
      if (pieces.length > 1) words.push(...pieces.map((piece) => [piece, prnotesWordTerm(piece, true), null]));
      for (const [word, term, known] of words) {
        const forms = known || unknown(word);
        if (!term || !forms) continue;
        const variants = prnotesVariants(...forms, keys);
        if (!variants.length) continue;
        consumed.add(term);
        groups.push(prnotesGroup([[[term], ""], ...variants]));
        if (word === run) break;
      }
    }
  return [...new Set([...prnotesTokens(norm).filter((t) => !consumed.has(t)), ...groups])];
};
