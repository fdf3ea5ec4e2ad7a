/*
 * PR 精读笔记: j and k move between notes (scripts/prnotes/sphinxext/lists/filters.py
 * loads this on list pages and note pages).
 *
 * On a list page (今日, a digest, a subsystem, a reading list, a tag, 本周, 未读),
 * j moves to the next note the list shows and k to the one before: the
 * entry gets the class prnotes-current, its title link the focus (Enter
 * opens it), and it is scrolled into view. Entries hidden (by the filters,
 * 只看未读, or on 未读) are passed over. On a note page, j opens 下一篇 and
 * k 上一篇, the footer's links. Nothing happens while the reader types in a
 * field, with a modifier key held, or while a dialog (the search) is open.
 *
 * The footer's switch (button.prnotes-keys-toggle) turns the keys off and
 * on, for every page of the site in this browser (localStorage; without
 * storage they stay on).
 */
(() => {
  "use strict";
  const CURRENT = "prnotes-current";
  const OFF = "prnotes-keys:off";
  const note = document.querySelector('meta[name="prnotes-note"]');
  const toggle = document.querySelector("button.prnotes-keys-toggle");

  const stored = () => {
    try {
      return window.localStorage.getItem(OFF) === "1";
    } catch (e) {
      return false;
    }
  };
  let off = stored();
  const show = () => {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", String(!off));
    toggle.textContent = `j/k 快捷键：${off ? "关" : "开"}`;
  };
  if (toggle) {
    toggle.addEventListener("click", () => {
      off = !off;
      try {
        if (off) window.localStorage.setItem(OFF, "1");
        else window.localStorage.removeItem(OFF);
      } catch (e) {
        // Kept for this page only.
      }
      show();
    });
    show();
  }

  const typing = (target) =>
    target instanceof Element && (target.isContentEditable || target.closest("input, textarea, select, [contenteditable]") !== null);

  /** The entries of the page's lists that show, in page order. */
  const shown = () =>
    [...document.querySelectorAll("article .prnotes-list > li.prnotes-note")].filter((entry) => entry.getClientRects().length > 0);

  const step = (forward) => {
    const entries = shown();
    if (!entries.length) return false;
    let index = entries.findIndex((entry) => entry.contains(document.activeElement));
    if (index < 0) index = entries.findIndex((entry) => entry.classList.contains(CURRENT));
    const next = index < 0 ? 0 : Math.min(Math.max(index + (forward ? 1 : -1), 0), entries.length - 1);
    for (const entry of document.querySelectorAll(`.${CURRENT}`)) entry.classList.remove(CURRENT);
    const entry = entries[next];
    entry.classList.add(CURRENT);
    const link = entry.querySelector("a.reference.internal");
    if (link) link.focus({preventScroll: true});
    entry.scrollIntoView({block: "nearest"});
    return true;
  };

  const go = (forward) => {
    const link = document.querySelector(`.prev-next-area a.${forward ? "right-next" : "left-prev"}`);
    if (!link) return false;
    window.location.assign(link.href);
    return true;
  };

  document.addEventListener("keydown", (event) => {
    if (off || (event.key !== "j" && event.key !== "k")) return;
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    if (typing(event.target) || document.querySelector("dialog[open]")) return;
    const forward = event.key === "j";
    if (note ? go(forward) : step(forward)) event.preventDefault();
  });
})();
