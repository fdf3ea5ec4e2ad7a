/*
 * PR 精读笔记: read marks and "new since your last visit", kept in this
 * browser only (localStorage: no server, no cookie). The pages' side is
 * scripts/prnotes/sphinxext/lists/readmarks.py.
 *
 * One localStorage item per site (its name ends in the site's root path),
 * holding JSON:
 *   read     {"owner/repo#N": K, ...}  the notes opened, each with its digest's number
 *   cleared  [[from, to], ...]         digests marked read as a whole (全部标为已读)
 *   visit    {since, shown, at, first}  since: the baseline of this visit (a digest number);
 *                                      shown: the newest digest the landing page showed in it;
 *                                      at: the time of its last page view (ms);
 *                                      first: no visit came before it
 *
 * A visit is a run of page views with no gap longer than VISIT_GAP; when the
 * next one starts, its baseline is what the landing page showed in the one
 * before. New since the last visit: the notes of digests newer than the
 * baseline that are not read. On a first visit the baseline is the digest
 * before the first one of 今日 (data-today on the line).
 *
 * The line (div.prnotes-since, on the landing page and on 未读) says how many,
 * linked to 未读; 未读 lists every note of the digests the line knows, and
 * the entries of exactly the notes counted get the class prnotes-new (CSS
 * shows only those). Each change of the marks is announced with the event
 * "prnotes:readmarks" (the filters' 只看未读 follows it). Back on a page
 * from the browser's cache, or after a note opened in another tab, the page
 * is worked out again: the count and 未读 shrink as notes are read. Nothing
 * is marked read but the note a page is (its meta tag).
 *
 * Nothing here may throw: storage may be disabled, full, or hold anything.
 * Without storage every entry stays unread, the line goes, and 未读 shows
 * every entry it has.
 */
(() => {
  "use strict";
  const VISIT_GAP = 60 * 60 * 1000;
  const MAX_READ = 20000; // read marks kept; the oldest digests' go first
  const READ = "prnotes-read";
  const NEW = "prnotes-new";

  const root = () => {
    try {
      return new URL(document.documentElement.dataset.content_root || "./", window.location.href).pathname;
    } catch (e) {
      return "/";
    }
  };
  const STORE = `prnotes-readmarks:${root()}`;

  const storage = () => {
    try {
      const s = window.localStorage;
      s.setItem(`${STORE}:probe`, "1");
      s.removeItem(`${STORE}:probe`);
      return s;
    } catch (e) {
      return null;
    }
  };

  const isInt = (v) => Number.isInteger(v);

  /** What the store holds, with anything malformed left out. */
  const load = (store) => {
    let raw = {};
    try {
      raw = JSON.parse(store.getItem(STORE) || "{}") || {};
    } catch (e) {
      raw = {};
    }
    const read = {};
    if (raw.read && typeof raw.read === "object") {
      for (const [key, digest] of Object.entries(raw.read)) if (isInt(digest)) read[key] = digest;
    }
    const cleared = Array.isArray(raw.cleared)
      ? raw.cleared.filter((r) => Array.isArray(r) && r.length === 2 && isInt(r[0]) && isInt(r[1]))
      : [];
    const v = raw.visit;
    const visit =
      v && isInt(v.since) && isInt(v.shown) && Number.isFinite(v.at) ? {since: v.since, shown: v.shown, at: v.at, first: v.first === true} : null;
    return {read, cleared, visit};
  };

  /** Keep the newest MAX_READ marks (by digest). */
  const prune = (data, keep) => {
    const keys = Object.keys(data.read);
    if (keys.length <= keep) return;
    keys.sort((a, b) => data.read[b] - data.read[a]);
    for (const key of keys.slice(keep)) delete data.read[key];
  };

  const save = (store, data) => {
    prune(data, MAX_READ);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        store.setItem(STORE, JSON.stringify(data));
        return;
      } catch (e) {
        prune(data, Math.floor(Object.keys(data.read).length / 2)); // full: drop the older half and try once more
      }
    }
  };

  const inCleared = (data, digest) => data.cleared.some(([from, to]) => from <= digest && digest <= to);
  const isRead = (data, key, digest) => Object.hasOwn(data.read, key) || inCleared(data, digest);

  /** Mark the entries of the notes read, and tell the filters (prnotes-filters.js) to look again. */
  const markEntries = (data) => {
    for (const entry of document.querySelectorAll(".prnotes-note[data-pr]")) {
      entry.classList.toggle(READ, isRead(data, entry.dataset.pr, Number(entry.dataset.digest)));
    }
    document.dispatchEvent(new CustomEvent("prnotes:readmarks"));
  };

  /** {digest: notes} of the line's digests (the newest first). */
  const digestCounts = (box) => {
    const counts = new Map();
    for (const pair of (box.dataset.digests || "").split(/\s+/)) {
      const [digest, notes] = pair.split(":").map(Number);
      if (isInt(digest) && isInt(notes)) counts.set(digest, notes);
    }
    return counts;
  };

  /** Whether a note of `digest` is new since the baseline (and in the digests the line knows). */
  const isNew = (data, counts, digest) => digest > data.visit.since && counts.has(digest) && !inCleared(data, digest);

  /** Unread notes of the digests after the baseline; `atLeast` when older digests are not known here. */
  const unreadSince = (data, counts) => {
    let count = 0;
    for (const [digest, notes] of counts) if (isNew(data, counts, digest)) count += notes;
    for (const digest of Object.values(data.read)) if (isNew(data, counts, digest)) count -= 1;
    const oldest = Math.min(...counts.keys());
    return {count: Math.max(count, 0), atLeast: data.visit.since < oldest - 1};
  };

  /** 未读: show the entries of exactly the notes the count counts (class prnotes-new). */
  const markNew = (data, counts) => {
    for (const entry of document.querySelectorAll(".prnotes-list-unread > .prnotes-note[data-pr]")) {
      const digest = Number(entry.dataset.digest);
      entry.classList.toggle(NEW, isNew(data, counts, digest) && !isRead(data, entry.dataset.pr, digest));
    }
  };

  const render = (store, data, box, counts) => {
    const first = data.visit.first;
    const newest = Math.max(...counts.keys());
    const since = data.visit.since;
    const {count, atLeast} = unreadSince(data, counts);
    const line = document.createElement("p");
    line.className = "prnotes-since-line";
    line.tabIndex = -1;
    const number = document.createElement("strong");
    number.className = "prnotes-since-count";
    number.textContent = String(count);
    if (count === 0) {
      line.append(first ? "今日的笔记都已读过。" : "上次访问以来没有新的未读笔记。");
    } else {
      // The count leads to 未读, the list of exactly those notes (but on 未读 itself).
      const notes = box.dataset.unread ? document.createElement("a") : document.createElement("span");
      if (box.dataset.unread) {
        notes.href = box.dataset.unread;
        notes.className = "prnotes-since-link";
      }
      notes.append(number, " 篇未读笔记");
      line.append(first ? "今日有 " : `上次访问以来新到${atLeast ? "至少" : ""} `, notes, "。");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "prnotes-mark-all";
      button.textContent = "全部标为已读";
      button.addEventListener("click", () => {
        const fresh = load(store);
        fresh.cleared.push([since + 1, newest]);
        fresh.visit = data.visit;
        save(store, fresh);
        Object.assign(data, fresh);
        show(store, data, box, counts);
        box.querySelector(".prnotes-since-line").focus();
      });
      line.append(" ", button);
    }
    if (first) {
      const where = document.createElement("span");
      where.className = "prnotes-since-where";
      where.textContent = "已读记号只存在这台设备的浏览器里。";
      line.append(" ", where);
    }
    box.dataset.new = String(count);
    box.replaceChildren(line);
  };

  /** Everything the read marks change on the page. */
  const show = (store, data, box, counts) => {
    markEntries(data);
    if (!counts.size) return;
    markNew(data, counts);
    render(store, data, box, counts);
  };

  /** Without storage nothing is known: the line goes, and 未读 shows every entry it has. */
  const unknown = () => {
    for (const box of document.querySelectorAll(".prnotes-since")) box.hidden = true;
    for (const list of document.querySelectorAll(".prnotes-list-unread")) list.classList.add("prnotes-unknown");
  };

  const run = () => {
    const store = storage();
    if (!store) return unknown();
    const data = load(store);
    const now = Date.now();
    if (data.visit && now - data.visit.at > VISIT_GAP) Object.assign(data.visit, {since: data.visit.shown, first: false});
    if (data.visit) data.visit.at = now;

    const meta = document.querySelector('meta[name="prnotes-note"]');
    const digest = meta ? Number(meta.dataset.digest) : NaN;
    if (meta && meta.content && isInt(digest)) data.read[meta.content] = digest;

    const box = document.querySelector(".prnotes-since[data-digests]");
    const counts = box ? digestCounts(box) : new Map();
    if (counts.size) {
      const newest = Math.max(...counts.keys());
      if (!data.visit) {
        // A first visit: the notes of 今日 are the new ones.
        const today = Number(box.dataset.today);
        data.visit = {since: (isInt(today) && today > 0 ? today : newest) - 1, shown: newest, at: now, first: true};
      } else {
        data.visit.shown = newest;
        data.visit.since = Math.min(data.visit.since, newest);
      }
    }
    save(store, data);
    show(store, data, box, counts);

    const refresh = () => {
      const fresh = load(store);
      if (fresh.visit && data.visit) fresh.visit = data.visit; // this page's visit and baseline
      Object.assign(data, fresh);
      show(store, data, box, counts);
    };
    // Back from a note: the page comes from the browser's cache, its script not run again.
    window.addEventListener("pageshow", (event) => event.persisted && refresh());
    // A note opened in another tab.
    window.addEventListener("storage", (event) => event.key === STORE && refresh());
  };

  run();
})();
