"""The search over the whole index, in the browser, to compare with the split one.

:data:`WHOLE_VIEW` defines, in a page where the search script has loaded,
``PrnotesWholeIndex``: the same interface as index.js's ``PrnotesIndex``,
answered from the whole ``searchindex.js`` (Sphinx's numbering and order),
with nothing to load: typos and joined words by going through every term
(index.js's ``prnotesNearFilter`` and ``prnotesPieces`` on all of them), the
bilingual pairs and the dictionary's words (which searchindex.js lacks) from
every term chunk of the split index, read once. The ranking (rank.js) over it is the search as it
would be if the browser loaded the whole index; :data:`COMPARE` runs
queries over both and returns each one's ranked docnames and scores.
"""

from __future__ import annotations

WHOLE_VIEW = r"""
window.PrnotesWholeIndex = class PrnotesWholeIndex {
  constructor(data, links, words) {
    this.data = data;
    this.pairs = links || new Map();
    this.words = words || new Map();
    this.missing = new Set();
    this.misses = 0;
    const n = data.docnames.length;
    this.note = data.docnames.map((d) => PRNOTES_NOTE_DOCNAME.test(d));
    const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    const order = [...Array(n).keys()].sort((a, b) =>
      (this.note[b] - this.note[a]) || cmp(data.titles[a], data.titles[b]) || cmp(data.docnames[a], data.docnames[b]));
    this.ranks = new Map(order.map((p, i) => [p, i]));
    this.groups = new Map();
    const first = new Map();
    for (const p of order) {
      if (this.note[p]) continue;
      const title = data.titles[p];
      if (first.has(title)) this.groups.set(p, first.get(title));
      else first.set(title, p);
    }
    this.keys = [Object.keys(data.titleterms), Object.keys(data.terms)];
    this.all = [...new Set([...this.keys[0], ...this.keys[1]])];
  }
  get pages() { return this.data.docnames.length; }
  isNote(p) { return this.note[p]; }
  rank(p) { return this.ranks.get(p); }
  titleGroup(p) { return this.groups.has(p) ? this.groups.get(p) : p; }
  _ids(v) { return v === undefined ? [] : (typeof v === "number" ? [v] : [...v]).sort((a, b) => a - b); }
  term(t) {
    const own = (m) => Object.prototype.hasOwnProperty.call(m, t);
    if (!own(this.data.titleterms) && !own(this.data.terms)) return null;
    return [this._ids(own(this.data.titleterms) ? this.data.titleterms[t] : undefined),
            this._ids(own(this.data.terms) ? this.data.terms[t] : undefined)];
  }
  inside(slot, t) {
    if (prnotesSquash(t).length < PRNOTES_GRAM) return [];
    return this.keys[slot].filter((k) => k !== t && k.includes(t));
  }
  known(t) {
    if (this.term(t)) return true;
    if (t.length <= 2 || prnotesSquash(t).length < PRNOTES_GRAM) return false;
    return this.all.some((k) => k.includes(t));
  }
  containing(s) {
    if (s.length < PRNOTES_GRAM) return [];
    return this.all.filter((k) => prnotesSquash(k).includes(s));
  }
  links(t) { return this.pairs.get(t) || []; }
  translations(t) { return this.words.get(t) || []; }
  near(word, edits) { return prnotesNearFilter(word, this.all, edits); }
  pieces(s) {
    const termOf = (x) => (this.term(x) ? x : prnotesFold(x) !== x && this.term(prnotesFold(x)) ? prnotesFold(x) : null);
    return s.length < 4 ? [] : prnotesPieces(s, termOf);
  }
  page(p) { return [this.data.docnames[p], this.data.titles[p]]; }
  filterValue() { throw new Error("the whole index has no filters"); }
  async load() {}
};
"""

# queries -> [[query, split rows, whole rows]], each row [docname, score].
COMPARE = r"""
async (queries) => {
  const split = PrnotesSearch.view;
  const text = await (await fetch(`${split.root}searchindex.js`)).text();
  const links = new Map();
  const words = new Map();
  for (let k = 0; k < split.entry.chunks; k++) {
    const chunk = await (await fetch(`${split.base}t/${k}.json`)).json();
    for (const [term, value] of Object.entries(chunk)) {
      if (term === PRNOTES_DICTIONARY_KEY) Object.entries(value).forEach(([word, chinese]) => words.set(word, chinese));
      else if (value[2]) links.set(term, value[2]);
    }
  }
  const whole = new window.PrnotesWholeIndex(JSON.parse(text.slice("Search.setIndex(".length, -1)), links, words);
  const out = [];
  try {
    for (const q of queries) {
      PrnotesSearch.use(split);
      const a = await PrnotesSearch.search(q);
      const aRows = await PrnotesSearch.pages(a.rows.map(([p]) => p));
      PrnotesSearch.use(whole);
      const b = await PrnotesSearch.search(q);
      out.push([q, a.rows.map(([, s], i) => [aRows[i][0], s]), b.rows.map(([p, s]) => [whole.data.docnames[p], s])]);
    }
  } finally {
    PrnotesSearch.use(split);
  }
  return out;
}
"""
