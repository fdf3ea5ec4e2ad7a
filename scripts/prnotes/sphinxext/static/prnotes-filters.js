/*
 * PR 精读笔记: narrow a list page's notes by verdict, repository and
 * subsystem (scripts/prnotes/sphinxext/lists/filters.py writes the form). The
 * choice lives in the URL (?verdict=精读&repo=owner/repo&subsystem=slug),
 * so a filtered view can be bookmarked and shared. Entries that do not
 * match are hidden, never removed; so are sections left with none (but
 * the one that holds the form).
 */
(() => {
  "use strict";
  const NAMES = ["verdict", "repo", "subsystem"];
  const LABELS = {verdict: ["阅读结论", "全部结论"], repo: ["仓库", "全部仓库"], subsystem: ["子系统", "全部子系统"]};
  const form = document.querySelector("form.prnotes-filters");
  if (!form) return;
  const entries = [...document.querySelectorAll(".prnotes-list > li[data-repo]")];
  const status = form.querySelector(".prnotes-filter-status");
  const params = new URLSearchParams(window.location.search);
  const chosen = Object.fromEntries(NAMES.map((name) => [name, params.get(name) || ""]));

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
      form.insertBefore(field, later ? later.closest(".prnotes-filter") : form.querySelector(".prnotes-filter-reset"));
    }
    if (![...select.options].some((o) => o.value === value)) select.append(option(value, value));
    select.value = value;
  };

  const apply = () => {
    let shown = 0;
    for (const entry of entries) {
      const match = NAMES.every((name) => !chosen[name] || entry.dataset[name] === chosen[name]);
      entry.hidden = !match;
      if (match) shown += 1;
    }
    // A part of the page (a reading list's subsystem) left with no entry goes too.
    for (const section of document.querySelectorAll("article section section")) {
      const own = section.querySelectorAll(".prnotes-list > li[data-repo]");
      if (own.length && !section.contains(form)) section.hidden = ![...own].some((entry) => !entry.hidden);
    }
    const active = NAMES.some((name) => chosen[name]);
    form.classList.toggle("prnotes-filtered", active);
    status.textContent = active ? `显示 ${shown} / ${entries.length} 篇` : `共 ${entries.length} 篇`;
  };

  const remember = () => {
    const url = new URL(window.location.href);
    for (const name of NAMES) {
      if (chosen[name]) url.searchParams.set(name, chosen[name]);
      else url.searchParams.delete(name);
    }
    window.history.replaceState(window.history.state, "", url);
  };

  for (const name of NAMES) if (chosen[name]) offer(name, chosen[name]);
  form.addEventListener("change", (event) => {
    if (!NAMES.includes(event.target.name)) return;
    chosen[event.target.name] = event.target.value;
    remember();
    apply();
  });
  form.addEventListener("reset", () => {
    for (const name of NAMES) chosen[name] = "";
    remember();
    apply();
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  apply();
  form.hidden = !form.querySelector("select");
})();
