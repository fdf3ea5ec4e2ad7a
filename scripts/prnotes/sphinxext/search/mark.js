/*
 * PR 精读笔记 search: what a result marks, and the snippet around it.
 *
 * Marks cover whole tokens: an English word or identifier is marked whole
 * when one of its search terms (prnotesTokens) is a term the search matched,
 * never a part of it ("NONE" whole for the term non, never "NON" in
 * "NONE"; "xxHash" for its part hash, never "Hash" alone). Chinese has no
 * words to cut: each occurrence of a matched bigram (or single character)
 * is marked, and marks that touch are one mark.
 */

/** Ranges [start, end) of `text` to mark for the matched terms (a Set). */
const prnotesMarks = (text, matched) => {
  // The normalized text (prnotesNormalize), with where each of its
  // characters comes from in `text`.
  let norm = "";
  const from = [];
  const to = [];
  let offset = 0;
  for (const ch of text) {
    const folded = prnotesNormalize(ch);
    for (let k = 0; k < folded.length; k++) {
      from.push(offset);
      to.push(offset + ch.length);
    }
    norm += folded;
    offset += ch.length;
  }
  // The lengths of the Chinese terms (bigrams, single characters): each
  // place of a run is looked up once per length, whatever their number.
  const lengths = [...new Set([...matched].filter((t) => t && t[0] >= "\u3400").map((t) => t.length))];
  const ranges = [];
  for (const match of norm.matchAll(PRNOTES_RUN)) {
    const [run] = match;
    if (run[0] >= "\u3400") {
      for (const n of lengths)
        for (let i = 0; i + n <= run.length; i++)
          if (matched.has(run.slice(i, i + n))) ranges.push([match.index + i, match.index + i + n]);
    } else if (prnotesTokens(run).some((t) => matched.has(t))) ranges.push([match.index, match.index + run.length]);
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged.map(([start, end]) => [from[start], to[end - 1]]);
};

/** Mark the matched terms in the text under `root` with <span class="highlighted">. */
const prnotesMarkElement = (root, matched) => {
  if (!matched.size) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement.closest("script, style, .highlighted, .headerlink") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    const ranges = prnotesMarks(text, matched);
    if (!ranges.length) continue;
    const parts = document.createDocumentFragment();
    let at = 0;
    for (const [start, end] of ranges) {
      if (start > at) parts.append(text.slice(at, start));
      const mark = document.createElement("span");
      mark.className = "highlighted";
      mark.textContent = text.slice(start, end);
      parts.append(mark);
      at = end;
    }
    if (at < text.length) parts.append(text.slice(at));
    node.replaceWith(parts);
  }
};

/**
 * The snippet: `width` characters of `text` around the place where the most
 * of the matched words occur together (longer words count for more), with
 * "..." where it cuts the text.
 */
const prnotesSnippet = (text, matched, width = 240) => {
  const marks = prnotesMarks(text, matched).slice(0, 200);
  let best = 0;
  let bestScore = 0;
  for (const [at] of marks) {
    const start = Math.max(at - 40, 0);
    const words = new Map();
    for (const [s, e] of marks) if (s >= start && e <= start + width) words.set(text.slice(s, e).toLowerCase(), e - s);
    const score = [...words.values()].reduce((sum, n) => sum + n, 0);
    if (score > bestScore) [best, bestScore] = [start, score];
  }
  return (best > 0 ? "..." : "") + text.substr(best, width).trim() + (best + width < text.length ? "..." : "");
};
