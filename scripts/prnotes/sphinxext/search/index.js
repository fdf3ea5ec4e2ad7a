/*
 * PR 精读笔记 search: the split index in the browser (split.py writes it).
 *
 * A query needs a few of the index's files: the chunks its terms fall in,
 * a key bucket where a typed word may sit inside longer terms, the shards
 * of the pages it lists, a filter. PrnotesIndex answers from what it has
 * loaded, synchronously, and notes what it lacked; prnotesComplete runs a
 * computation until it lacks nothing, loading what each pass asked for. The
 * last pass has seen, for every term it touched, exactly what the whole
 * index holds, so its answer is the whole index's answer.
 */

const PRNOTES_LAST = "0123456789abcdefghijklmnopqrstuv";
const PRNOTES_MORE = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";
const PRNOTES_GRAM = 3;

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
    const found = Object.prototype.hasOwnProperty.call(chunk, term)
      ? chunk[term].map(prnotesDecodeIds) : null;
    this.decoded.set(term, found);
    return found;
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

  /** A page's row: [docname, title] or, for a note, [docname, title, verdict, repo, number, date, subsystem]. */
  page(page) {
    const shard = this._file(`d/${Math.floor(page / this.entry.shard)}.json`);
    return shard === undefined ? undefined : shard[page % this.entry.shard];
  }

  /** A filter's value of a page (the verdict word, owner/repo, the subsystem's slug), or null. */
  filterValue(name, page) {
    const codes = this._file(`f/${name}.json`);
    if (codes === undefined) return undefined;
    const at = PRNOTES_FILTER_CODES.indexOf(codes[page]);
    return at < 0 ? null : this.entry.filters[name][at];
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

// split.CODES: a filter's code character for each of its values, in order.
const PRNOTES_FILTER_CODES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&()*+,-./:;<=>?@[]^_`{|}~";

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
