/*
 * PR 精读笔记 search: the split index in the browser (split.py writes it).
 *
 * A query needs a few of the index's files: the chunks its terms fall in
 * (with the bilingual pairs stored under them, and the dictionary's English
 * words that hash there, under the key ""), a key bucket where a typed
 * word may sit inside longer terms, the typo buckets of a word the index
 * lacks, the shards of the pages it lists, a filter. PrnotesIndex answers
 * from what it has loaded, synchronously, and notes what it lacked;
 * prnotesComplete runs a computation until it lacks nothing, loading what
 * each pass asked for. The last pass has seen, for every term it touched,
 * exactly what the whole index holds, so its answer is the whole index's
 * answer.
 */

const PRNOTES_LAST = "0123456789abcdefghijklmnopqrstuv";
const PRNOTES_MORE = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";
const PRNOTES_GRAM = 3;
// Typos: a word of PRNOTES_TYPO_ONE.. letters (once "_ . -" are out) may be
// one edit off a term of the index, one of PRNOTES_TYPO_TWO or more two edits.
// The typo buckets (split.py) hold the terms of PRNOTES_TYPO_SHORTEST to
// PRNOTES_TYPO_LONGEST letters under their one-edit keys.
const PRNOTES_TYPO_ONE = 5;
const PRNOTES_TYPO_TWO = 9;
const PRNOTES_TYPO_SHORTEST = 4;
const PRNOTES_TYPO_LONGEST = 9;
// split.DICTIONARY_KEY: where a term chunk holds the dictionary's English words.
const PRNOTES_DICTIONARY_KEY = "";

/** split.decode_ids: page numbers from their gaps. */
const prnotesDecodeIds = (text) => {
  const ids = [];
  let previous = -1;
  let value = 0;
  for (const c of text) {
    const more = PRNOTES_MORE.indexOf(c);
    if (more >= 0) value = value * 32 + more;
    else {
      previous += value * 32 + PRNOTES_LAST.indexOf(c) + 1;
      ids.push(previous);
      value = 0;
    }
  }
  return ids;
};

const PRNOTES_CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();
const PRNOTES_UTF8 = new TextEncoder();

/** split.bucket_of: CRC-32 of the UTF-8 of a term, modulo count. */
const prnotesBucketOf = (text, count) => {
  let crc = 0xffffffff;
  for (const byte of PRNOTES_UTF8.encode(text)) crc = PRNOTES_CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0) % count;
};

/** split.grams: the three-character grams of a term once "_ . -" are taken out. */
const prnotesGrams = (term) => {
  const s = prnotesSquash(term);
  const out = new Set();
  for (let i = 0; i + PRNOTES_GRAM <= s.length; i++) out.add(s.slice(i, i + PRNOTES_GRAM));
  return [...out];
};

/** How many edits a typo of a word of `length` letters may have made: 0, 1 or 2. */
const prnotesTypoEdits = (length) => (length < PRNOTES_TYPO_ONE ? 0 : length < PRNOTES_TYPO_TWO ? 1 : 2);

/**
 * The edits to look for around `form`, a way of writing the word `typed`
 * (as typed, or with its inflection folded: "cahces" -> "cahc"): as many as
 * the typed word's length allows, but one when the form is too short to
 * cut in thirds of three letters.
 */
const prnotesFormEdits = (typed, form) => {
  const edits = prnotesTypoEdits(prnotesSquash(typed).length);
  return edits === 2 && prnotesSquash(form).length < PRNOTES_TYPO_TWO ? 1 : edits;
};

/** A word cut into three parts as equal as can be (each 3 letters or more for 9 or more). */
const prnotesThirds = (s) => {
  const [a, b] = [Math.round(s.length / 3), Math.round((2 * s.length) / 3)];
  return [s.slice(0, a), s.slice(a, b), s.slice(b)];
};

/**
 * The optimal string alignment distance of a and b (Levenshtein's
 * insertions, deletions and substitutions, and a swap of two adjacent
 * characters, each one edit), or max + 1 when it is more than max.
 */
const prnotesEditDistance = (a, b, max) => {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = null;
  let previous = Array.from({length: b.length + 1}, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
      least = Math.min(least, d);
    }
    if (least > max) return max + 1;
    [before, previous] = [previous, row];
  }
  return Math.min(previous[b.length], max + 1);
};

const prnotesDigitsOf = (s) => s.replace(/[^0-9]/g, "");

/**
 * Of `candidates` (terms of the index), those a typo of `word` may stand
 * for, as [term, edits], fewest edits first: ASCII terms within `max`
 * edits of the word once "_ . -" are out of both, with the same digits
 * (qwen2 is not a typo of qwen3); for one edit, terms of
 * PRNOTES_TYPO_SHORTEST to PRNOTES_TYPO_LONGEST letters; for two, terms
 * that hold one of the word's thirds as it is (every term within two
 * insertions, deletions or substitutions does). The browser's index (near)
 * and the tests' whole index give this the candidates they find.
 */
const prnotesNearFilter = (word, candidates, max) => {
  const w = prnotesSquash(word.toLowerCase());
  if (!max) return [];
  const thirds = max === 2 ? prnotesThirds(w) : null;
  const digits = prnotesDigitsOf(w);
  const out = [];
  for (const term of new Set(candidates)) {
    if (term[0] === "#" || !/^[\x21-\x7e]+$/.test(term)) continue;
    const s = prnotesSquash(term);
    if (s === w || prnotesDigitsOf(s) !== digits) continue;
    if (thirds ? !thirds.some((part) => s.includes(part)) : s.length < PRNOTES_TYPO_SHORTEST || s.length > PRNOTES_TYPO_LONGEST) continue;
    const d = prnotesEditDistance(w, s, max);
    if (d <= max) out.push([term, d, Math.abs(s.length - w.length)]);
  }
  out.sort((a, b) => a[1] - b[1] || a[2] - b[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return out.map(([term, d]) => [term, d]);
};

/**
 * A word the index lacks as two words it has ("tensorcore": tensor + core),
 * as [first, second] terms, the most even cuts first, at most three: each
 * piece two letters or more, a term of the index as it is or with its
 * inflection folded (termOf(piece) gives that term, or null). A word of
 * more than PRNOTES_LONGEST_JOINED characters is pasted, not two words typed
 * together: it is not cut (each cut costs the word's length).
 */
const PRNOTES_LONGEST_JOINED = 64;
const prnotesPieces = (s, termOf) => {
  const out = [];
  if (s.length > PRNOTES_LONGEST_JOINED) return out;
  for (let i = 2; i + 2 <= s.length; i++) {
    const first = termOf(s.slice(0, i), true);
    const second = first && termOf(s.slice(i), false);
    if (second) out.push([first, second, Math.min(i, s.length - i), i]);
  }
  out.sort((a, b) => b[2] - a[2] || a[3] - b[3]);
  return out.slice(0, 3).map(([first, second]) => [first, second]);
};

const prnotesOwn = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

class PrnotesIndex {
  /** `root`: the site's root URL; `entry`: _search/entry.json. */
  constructor(root, entry) {
    this.root = root;
    this.entry = entry;
    this.base = `${root}_search/${entry.version}/`;
    this.files = new Map();  // path -> parsed JSON, once loaded
    this.pending = new Map();  // path -> Promise of it
    this.missing = new Set();  // paths a computation asked for and lacked
    this.misses = 0;  // how many times it lacked one
    this.decoded = new Map();  // term -> [title pages, text pages] | null
    this.linked = new Map();  // term -> the pairs stored under it: [[phrase, [partners]]]
    this.translated = new Map();  // term -> the Chinese words the dictionary gives it (split.py's "")
    this.sameTitle = new Map(entry.sameTitle);
    this.bytes = 0;  // characters of JSON loaded (for the benchmark)
  }

  get pages() {
    return this.entry.pages;
  }

  isNote(page) {
    return page < this.entry.notes;
  }

  /** The tie-break order of pages: by title (split.py numbers them so). */
  rank(page) {
    return page;
  }

  /** The hub page listed before `page` under the same title, or `page`. */
  titleGroup(page) {
    return this.sameTitle.has(page) ? this.sameTitle.get(page) : page;
  }

  _file(path) {
    if (this.files.has(path)) return this.files.get(path);
    this.missing.add(path);
    this.misses++;
    return undefined;
  }

  /** [title pages, text pages] of a term, null if the index lacks it, undefined if not loaded. */
  term(term) {
    if (this.decoded.has(term)) return this.decoded.get(term);
    const chunk = this._file(`t/${prnotesBucketOf(term, this.entry.chunks)}.json`);
    if (chunk === undefined) return undefined;
    const entry = prnotesOwn(chunk, term) ? chunk[term] : null;
    this.decoded.set(term, entry ? [prnotesDecodeIds(entry[0]), prnotesDecodeIds(entry[1])] : null);
    this.linked.set(term, (entry && entry[2]) || []);
    const words = prnotesOwn(chunk, PRNOTES_DICTIONARY_KEY) ? chunk[PRNOTES_DICTIONARY_KEY] : {};
    this.translated.set(term, prnotesOwn(words, term) ? words[term] : []);
    return this.decoded.get(term);
  }

  /** The bilingual pairs stored under a term (pairs.py): [[phrase, [partners]]]. */
  links(term) {
    return this.term(term) === undefined ? [] : this.linked.get(term);
  }

  /** The Chinese words of the notes that the dictionary gives an English word (pairs.py, CC-CEDICT), best first. */
  translations(term) {
    return this.term(term) === undefined ? [] : this.translated.get(term);
  }

  /**
   * The bucket that lists every ASCII term holding `s` (squashed): the
   * smallest of its grams' buckets. null when `s` has no gram (too short
   * to look for inside terms); undefined when not loaded.
   */
  _bucket(s) {
    const grams = prnotesGrams(s);
    if (!grams.length) return null;
    const sizes = this.entry.buckets;
    let best = -1;
    for (const gram of grams) {
      const k = prnotesBucketOf(gram, sizes.length);
      if (best < 0 || sizes[k] < sizes[best] || (sizes[k] === sizes[best] && k < best)) best = k;
    }
    return this._file(`g/${best}.json`);
  }

  /** The terms of the titles (slot 0) or texts (slot 1) that hold `term` inside them. */
  inside(slot, term) {
    const bucket = this._bucket(term);
    if (!bucket) return [];
    return bucket[slot === 0 ? "t" : "b"].filter((key) => key !== term && key.includes(term));
  }

  /** Whether the index has `term`, or a term that holds it (fold.js's variants). */
  known(term) {
    const found = this.term(term);
    if (found) return true;
    if (term.length <= 2) return false;
    const bucket = this._bucket(term);
    return Boolean(bucket) && [...bucket.t, ...bucket.b].some((key) => key.includes(term));
  }

  /** The index's terms that hold `squashed` once their "_ . -" are taken out (fold.js's variants). */
  containing(squashed) {
    const bucket = this._bucket(squashed);
    if (!bucket) return [];
    return [...new Set([...bucket.t, ...bucket.b])].filter((key) => prnotesSquash(key).includes(squashed));
  }

  /** The ASCII terms in the key bucket of a three-character gram (a Set), undefined when not loaded. */
  _gramTerms(gram) {
    const bucket = this._file(`g/${prnotesBucketOf(gram, this.entry.buckets.length)}.json`);
    return bucket === undefined ? undefined : new Set([...bucket.t, ...bucket.b]);
  }

  /**
   * The index's terms within `edits` (1 or 2) of `word` that a typo may
   * stand for (prnotesNearFilter): for one edit, those listed under the
   * word's one-edit keys (the word and the word with one letter left out,
   * split.py's typo buckets); for two, the terms holding one of its thirds
   * (the key buckets).
   */
  near(word, edits) {
    const w = prnotesSquash(word.toLowerCase());
    const candidates = [];
    if (edits === 1) {
      const keys = new Set([w]);
      for (let i = 0; i < w.length; i++) keys.add(w.slice(0, i) + w.slice(i + 1));
      for (const key of keys) {
        const bucket = this._file(`e/${prnotesBucketOf(key, this.entry.typo)}.json`);
        if (bucket && prnotesOwn(bucket, key)) candidates.push(...bucket[key]);
      }
    } else if (edits === 2) for (const part of prnotesThirds(w)) candidates.push(...this.containing(part));
    return prnotesNearFilter(word, candidates, edits);
  }

  /**
   * A word the index lacks as two of its words (prnotesPieces). Pieces of
   * three letters or more are looked up in the key buckets of the word's
   * first and last grams, which list every term that begins or ends it;
   * a folded piece that lacks the gram, and two-letter pieces, in the
   * term chunks.
   */
  pieces(s) {
    if (s.length < 4) return [];
    const [head, tail] = [s.slice(0, PRNOTES_GRAM), s.slice(-PRNOTES_GRAM)];
    const buckets = [this._gramTerms(head), this._gramTerms(tail)];
    if (buckets.includes(undefined)) return [];
    return prnotesPieces(s, (piece, first) => {
      if (piece.length < PRNOTES_GRAM) return this.term(piece) ? piece : null;
      const [gram, terms] = first ? [head, buckets[0]] : [tail, buckets[1]];
      if (terms.has(piece)) return piece;
      const folded = prnotesFold(piece);
      if (folded === piece) return null;
      if (folded.includes(gram)) return terms.has(folded) ? folded : null;
      return this.term(folded) ? folded : null;
    });
  }

  /** A page's row: [docname, title] or, for a note, [docname, title, verdict, repo, number, date, subsystem]. */
  page(page) {
    const shard = this._file(`d/${Math.floor(page / this.entry.shard)}.json`);
    return shard === undefined ? undefined : shard[page % this.entry.shard];
  }

  /** A filter's value of a page (the verdict word, owner/repo, the subsystem's slug), or null. */
  filterValue(name, page) {
    const codes = this._file(`f/${name}.json`);
    if (codes === undefined) return undefined;
    const values = this.entry.filters[name];
    const width = prnotesCodeWidth(values.length);
    let at = 0;
    for (let k = 0; k < width; k++) {
      const digit = PRNOTES_FILTER_CODES.indexOf(codes[page * width + k]);
      if (digit < 0) return null;
      at = at * PRNOTES_FILTER_CODES.length + digit;
    }
    return at < values.length ? values[at] : null;
  }

  /** Load what the last computations lacked. */
  async load() {
    const wanted = [...this.missing];
    this.missing.clear();
    await Promise.all(wanted.map((path) => {
      if (!this.pending.has(path))
        this.pending.set(path, fetch(this.base + path).then((response) => {
          if (!response.ok) throw new Error(`prnotes: the search index file ${this.base + path} did not load (HTTP ${response.status})`);
          return response.text();
        }).then((text) => {
          this.bytes += text.length;
          this.files.set(path, JSON.parse(text));
        }));
      return this.pending.get(path);
    }));
  }
}

// split.CODES: the digits of a filter's code for each of its values, in order.
const PRNOTES_FILTER_CODES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,-./:;<=>?@[]^_`{|}~";

/** How many code characters a page has in a filter of `values` values (split.code_width). */
function prnotesCodeWidth(values) {
  let width = 1;
  while (PRNOTES_FILTER_CODES.length ** width < values) width += 1;
  return width;
}

/**
 * Run `compute` (synchronous, reading `index`) until it lacks nothing, and
 * return what it returned then. `onLoad` runs after each load (the ranking
 * forgets what it worked out from incomplete data).
 */
const prnotesComplete = async (index, compute, onLoad) => {
  for (let pass = 0; ; pass++) {
    index.missing.clear();
    const out = compute();
    if (!index.missing.size) return out;
    if (pass > 20) throw new Error("prnotes: the search kept asking for more of the index");
    await index.load();
    if (onLoad) onLoad();
  }
};
