/*
 * PR 精读笔记: narrow a list page's notes by verdict, repository and
 * subsystem, and hide the notes read (scripts/prnotes/sphinxext/lists/filters.py
 * writes the form). The choice lives in the URL
 * (?verdict=精读&repo=owner/repo&subsystem=slug&unread=1), so a filtered view
 * survives a reload and can be bookmarked and shared. Entries that do not
 * match are hidden, never removed; so are sections left with none (but the
 * one that holds the form). The read marks (prnotes-readmarks.js) say which
 * entries are read, with the class prnotes-read, and announce each change
 * with the event "prnotes:readmarks": the view is worked out again then.
 */
(() => {
  "use strict";
  const NAMES = ["verdict", "repo", "subsystem"];
  const UNREAD = "unread";
  const LABELS = {verdict: ["阅读结论", "全部结论"], repo: ["仓库", "全部仓库"], subsystem: ["子系统", "全部子系统"]};
  const form = document.querySelector("form.prnotes-filters");
  if (!form) return;
  const entries = [...document.querySelectorAll(".prnotes-list:not(.prnotes-list-unread) > li[data-repo]")];
  const status = form.querySelector(".prnotes-filter-status");
  const unread = form.querySelector(`input[name="${UNREAD}"]`);
  const params = new URLSearchParams(window.location.search);
  const chosen = Object.fromEntries(NAMES.map((name) => [name, params.get(name) || ""]));
  let onlyUnread = params.get(UNREAD) === "1";

  const option = (value, text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  };

  /** A value the URL names that the page does not offer still shows, to be seen and cleared. */
  const offer = (name, value) => {
    let select = form.querySelector(`select[name="${name}"]`);
    if (!select) {
      const field = document.createElement("span");
      field.className = "prnotes-filter";
      const label = field.appendChild(document.createElement("label"));
      label.htmlFor = `prnotes-filter-${name}`;
      label.textContent = LABELS[name][0];
      select = field.appendChild(document.createElement("select"));
      select.id = label.htmlFor;
      select.name = name;
      select.append(option("", LABELS[name][1]));
      const later = NAMES.slice(NAMES.indexOf(name) + 1).map((n) => form.querySelector(`select[name="${n}"]`)).find(Boolean);
      form.insertBefore(field, later ? later.closest(".prnotes-filter") : form.querySelector(".prnotes-filter-unread, .prnotes-filter-reset"));
    }
    if (![...select.options].some((o) => o.value === value)) select.append(option(value, value));
    select.value = value;
  };

  const apply = () => {
    let shown = 0;
    for (const entry of entries) {
      const match = NAMES.every((name) => !chosen[name] || entry.dataset[name] === chosen[name]);
      const show = match && !(onlyUnread && entry.classList.contains("prnotes-read"));
      entry.hidden = !show;
      if (show) shown += 1;
    }
    // A part of the page (a reading list's subsystem) left with no entry goes too.
    for (const section of document.querySelectorAll("article section section")) {
      const own = section.querySelectorAll(".prnotes-list > li[data-repo]");
      if (own.length && !section.contains(form)) section.hidden = ![...own].some((entry) => !entry.hidden);
    }
    const active = onlyUnread || NAMES.some((name) => chosen[name]);
    form.classList.toggle("prnotes-filtered", active);
    status.textContent = active ? `显示 ${shown} / ${entries.length} 篇` : `共 ${entries.length} 篇`;
  };

  const remember = () => {
    const url = new URL(window.location.href);
    for (const name of NAMES) {
      if (chosen[name]) url.searchParams.set(name, chosen[name]);
      else url.searchParams.delete(name);
    }
    if (onlyUnread) url.searchParams.set(UNREAD, "1");
    else url.searchParams.delete(UNREAD);
    window.history.replaceState(window.history.state, "", url);
  };

  for (const name of NAMES) if (chosen[name]) offer(name, chosen[name]);
  if (unread) unread.checked = onlyUnread;
  form.addEventListener("change", (event) => {
    if (event.target === unread) onlyUnread = unread.checked;
    else if (NAMES.includes(event.target.name)) chosen[event.target.name] = event.target.value;
    else return;
    remember();
    apply();
  });
  form.addEventListener("reset", () => {
    for (const name of NAMES) chosen[name] = "";
    onlyUnread = false;
    remember();
    apply();
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  document.addEventListener("prnotes:readmarks", apply);
  apply();
  // The view the address asked for is applied: the lists may show (layout.html, prnotes.css).
  document.documentElement.classList.remove("prnotes-filtering");
})();
