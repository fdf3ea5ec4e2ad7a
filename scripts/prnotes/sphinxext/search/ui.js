/*
 * PR 精读笔记 search: what the reader sees. Results as they type in the
 * search dialog (Ctrl+K, /, or the 搜索 button), the search page
 * (search.html?q=…&verdict=…&repo=…&subsystem=…) with its filters, and the
 * query's words marked on the page a result opens.
 *
 * The loader (loader.js, on every page) loads this script when a search
 * starts, with the index's entry (PRNOTES_SEARCH_ENTRY); then prnotesInit
 * below runs. Every text the reader typed or the index holds goes into the
 * page as text, never as markup.
 */

// The filters of the search page: the URL parameters and values the list
// pages use (verdict: the verdict word; repo: owner/repo; subsystem: its slug).
const PRNOTES_FILTERS = [
  ["verdict", "阅读结论", "全部结论"],
  ["repo", "仓库", "全部仓库"],
  ["subsystem", "子系统", "全部子系统"],
];
const PRNOTES_FAILED = "搜索索引没有载入：请刷新页面再试。";
// The longest query searched, in characters: any question fits; a longer
// one (a pasted log or page) is searched by its first PRNOTES_MAX_QUERY
// characters, and the results say so.
const PRNOTES_MAX_QUERY = 200;

/**
 * The query to search for what the field holds (trimmed): {query, notice},
 * the notice "" unless the text was cut to PRNOTES_MAX_QUERY characters.
 */
const prnotesBoundQuery = (text) => {
  const whole = text.trim();
  let count = 0;
  let end = 0;  // where the first PRNOTES_MAX_QUERY characters end, in UTF-16 units
  for (const c of whole) if (count++ < PRNOTES_MAX_QUERY) end += c.length;
  if (count <= PRNOTES_MAX_QUERY) return {query: whole, notice: ""};
  return {
    query: whole.slice(0, end).trim(),
    notice: `查询过长（${count} 个字），只按前 ${PRNOTES_MAX_QUERY} 个字搜索。`,
  };
};

/** The element that says a query was cut, or null when it was not. */
const prnotesCutNotice = (notice, tag) => {
  if (!notice) return null;
  const element = document.createElement(tag);
  element.className = "prnotes-query-cut";
  element.textContent = notice;
  return element;
};

/**
 * The line that says a result is partial (PrnotesSearch.compute's
 * `partial`): no note has every word, and which words none has; and the
 * typos looked for as other words, and the English words looked for as
 * their Chinese (the dictionary's). "" when none of these.
 */
const prnotesPartialLine = (result) => {
  const quote = (words) => words.map((w) => `“${w}”`).join("、");
  const parts = [];
  if (result.partial) {
    const {missing} = result.partial;
    parts.push(`没有笔记包含全部词语；以下结果只匹配了部分词语${missing.length ? `（未找到：${quote(missing)}）` : ""}。`);
  }
  for (const [word, fixes] of result.corrected || [])
    parts.push(`“${word}”按相近的拼写查找：${fixes.slice(0, 3).join("、")}。`);
  for (const [word, chinese] of result.translated || [])
    parts.push(`“${word}”按词典译名查找：${chinese.slice(0, 3).join("、")}。`);
  return parts.join("");
};
// Where the page a result opens finds the words to mark.
const PRNOTES_HIGHLIGHT_KEY = "prnotes-search-highlight";

const prnotesRoot = () => document.documentElement.dataset.content_root || "";

/** The URL of a page. */
const prnotesUrl = (docname) => {
  const options = typeof DOCUMENTATION_OPTIONS === "undefined" ? {} : DOCUMENTATION_OPTIONS;
  let path;
  if (options.BUILDER === "dirhtml") path = docname === "index" ? "" : `${docname.replace(/(^|\/)index$/, "")}/`;
  else path = docname + (options.FILE_SUFFIX || ".html");
  return new URL(prnotesRoot() + path, window.location.href).href;
};

/** A page's snippet text (fragments.py writes one file per page), as a Promise. */
const PrnotesFragments = {
  _texts: new Map(),
  get: (docname) => {
    if (!PrnotesFragments._texts.has(docname)) {
      const view = PrnotesSearch.view;
      const url = `${view.root}_search/text/${docname}.txt?v=${view.entry.version}`;
      PrnotesFragments._texts.set(docname, fetch(url).then((r) => (r.ok ? r.text() : "")).catch(() => ""));
    }
    return PrnotesFragments._texts.get(docname);
  },
};

/** The facts beside a result's title: verdict, repo#PR, the digest's date. */
const prnotesMeta = (row) => {
  const meta = document.createElement("span");
  meta.className = "prnotes-result-meta";
  if (row.length < 7) return meta;
  const [, , verdict, repo, number, date] = row;
  const add = (cls, text) => {
    const part = meta.appendChild(document.createElement("span"));
    part.className = cls;
    part.textContent = text;
    return part;
  };
  if (verdict) add("prnotes-result-verdict", verdict).dataset.verdict = verdict;
  add("prnotes-result-pr", number === null ? repo : `${repo}#${number}`);
  if (date) add("prnotes-result-date", date);
  return meta;
};

/** Remember the matched terms for the page a result opens. */
const prnotesRememberHighlight = (href, matched) => {
  try {
    sessionStorage.setItem(PRNOTES_HIGHLIGHT_KEY, JSON.stringify({path: new URL(href).pathname, terms: [...matched]}));
  } catch (e) {
    // No storage (private mode): the page opens unmarked.
  }
};

/** On the page a result opened: mark the query's terms in the article. */
const prnotesHighlightPage = () => {
  let stored = null;
  try {
    stored = JSON.parse(sessionStorage.getItem(PRNOTES_HIGHLIGHT_KEY) || "null");
    sessionStorage.removeItem(PRNOTES_HIGHLIGHT_KEY);
  } catch (e) {
    return;
  }
  if (!stored || stored.path !== window.location.pathname) return;
  const article = document.querySelector("article.bd-article") || document.querySelector('[role="main"]');
  if (article) prnotesMarkElement(article, new Set(stored.terms));
};

/**
 * Results as the reader types, in the theme's search dialog. Each key runs
 * the search and lists the best pages as soon as their rows are in, their
 * snippets following; while the index's pieces for the latest key are still
 * loading, the results of an earlier key that are in show (never older ones
 * over newer). No search runs while an input method is composing
 * (between compositionstart and compositionend): the letters typed then are
 * not yet what the reader means. The field is an ARIA combobox: ArrowDown
 * and ArrowUp move through the results, Enter opens the marked one (or, with
 * none marked, the search page), Escape closes the dialog (the browser's).
 */
const PrnotesDialog = {
  SHOWN: 8,
  _run: 0,
  _listed: 0,  // the run whose results are listed
  _wanted: null,  // the query last searched for
  composing: false,
  active: -1,

  init: (dialog) => {
    const input = dialog.querySelector('input[name="q"]');
    if (!input || PrnotesDialog.input) return;
    const box = document.createElement("div");
    box.className = "prnotes-dialog-results";
    const status = box.appendChild(document.createElement("p"));
    status.className = "prnotes-dialog-status";
    status.setAttribute("role", "status");
    const partial = box.appendChild(document.createElement("p"));
    partial.className = "prnotes-dialog-partial";
    partial.hidden = true;
    const list = box.appendChild(document.createElement("div"));
    list.className = "prnotes-dialog-list";
    list.id = "prnotes-dialog-list";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "搜索结果");
    list.hidden = true;
    dialog.appendChild(box);
    Object.assign(PrnotesDialog, {dialog, input, status, partial, list});
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", "prnotes-dialog-list");
    input.setAttribute("aria-expanded", "false");
    PrnotesDialog.composing = Boolean(window.PRNOTES_SEARCH_COMPOSING && window.PRNOTES_SEARCH_COMPOSING());
    input.addEventListener("compositionstart", () => (PrnotesDialog.composing = true));
    input.addEventListener("compositionend", () => {
      PrnotesDialog.composing = false;
      PrnotesDialog.run();
    });
    input.addEventListener("input", (event) => {
      if (!event.isComposing) PrnotesDialog.run();
    });
    input.addEventListener("keydown", PrnotesDialog.key);
    list.addEventListener("click", (event) => {
      const option = event.target.closest("a.prnotes-dialog-result");
      if (option && PrnotesDialog.matched) prnotesRememberHighlight(option.href, PrnotesDialog.matched);
    });
    PrnotesDialog.run();
  },

  /** Search for what the field holds and list the results. */
  run: async () => {
    const {input, list, status, partial} = PrnotesDialog;
    if (!input || PrnotesDialog.composing) return;
    const typed = input.value.trim();
    if (typed === PrnotesDialog._wanted) return;
    PrnotesDialog._wanted = typed;
    const {query, notice} = prnotesBoundQuery(typed);
    const run = ++PrnotesDialog._run;
    if (!query) {
      PrnotesDialog._listed = run;
      PrnotesDialog.select(-1);
      list.replaceChildren();
      list.dataset.query = "";
      status.textContent = "";
      partial.textContent = "";
      partial.hidden = true;
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      return;
    }
    let result, rows;
    try {
      result = await PrnotesSearch.search(query);
      rows = await PrnotesSearch.pages(result.rows.slice(0, PrnotesDialog.SHOWN).map(([p]) => p));
    } catch (error) {
      if (run === PrnotesDialog._run) status.textContent = PRNOTES_FAILED;
      console.error(error.message);
      return;
    }
    if (run < PrnotesDialog._listed || !input.value.trim()) return;
    PrnotesDialog._listed = run;
    PrnotesDialog.matched = result.matched;
    PrnotesDialog.select(-1);
    list.replaceChildren();
    list.dataset.query = typed;  // what the list answers (the tests wait for it)
    const count = result.rows.length;
    status.textContent = count ? `“${query}”：找到 ${count} 个页面` : `没有找到与“${query}”匹配的页面`;
    const cut = prnotesCutNotice(notice, "span");
    if (cut) status.prepend(cut);
    partial.textContent = count ? prnotesPartialLine(result) : "";
    partial.hidden = !partial.textContent;
    rows.forEach((row, i) => {
      const option = document.createElement("a");
      option.className = "prnotes-dialog-result";
      option.id = `prnotes-dialog-result-${i}`;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.href = prnotesUrl(row[0]);
      const heading = option.appendChild(document.createElement("span"));
      heading.className = "prnotes-dialog-title";
      heading.textContent = row[1];
      prnotesMarkElement(heading, result.matched);
      option.appendChild(prnotesMeta(row));
      list.appendChild(option);
      PrnotesFragments.get(row[0]).then((text) => {
        if (!text || run !== PrnotesDialog._listed) return;
        const snippet = option.appendChild(document.createElement("span"));
        snippet.className = "prnotes-dialog-snippet";
        snippet.textContent = prnotesSnippet(text, result.matched);
        prnotesMarkElement(snippet, result.matched);
      });
    });
    const all = document.createElement("a");
    all.className = "prnotes-dialog-result prnotes-dialog-all";
    all.id = "prnotes-dialog-result-all";
    all.setAttribute("role", "option");
    all.setAttribute("aria-selected", "false");
    all.href = `${prnotesUrl("search")}?q=${encodeURIComponent(query)}`;
    all.textContent = count > PrnotesDialog.SHOWN ? `在搜索页查看全部 ${count} 个结果` : "在搜索页打开";
    list.appendChild(all);
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  },

  select: (i) => {
    const {input, list} = PrnotesDialog;
    const options = [...list.children];
    options.forEach((o, n) => o.setAttribute("aria-selected", String(n === i)));
    PrnotesDialog.active = i;
    if (i >= 0) {
      input.setAttribute("aria-activedescendant", options[i].id);
      options[i].scrollIntoView({block: "nearest"});
    } else input.removeAttribute("aria-activedescendant");
  },

  key: (event) => {
    if (event.isComposing || PrnotesDialog.composing) return;
    const options = PrnotesDialog.list.children;
    if (!options.length) return;
    const n = options.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      const at = PrnotesDialog.active;
      PrnotesDialog.select(at < 0 ? (step > 0 ? 0 : n - 1) : (at + step + n) % n);
    } else if (event.key === "Enter" && PrnotesDialog.active >= 0) {
      event.preventDefault();
      const href = options[PrnotesDialog.active].href;
      if (PrnotesDialog.matched) prnotesRememberHighlight(href, PrnotesDialog.matched);
      window.location.assign(href);
    }
  },
};

/**
 * The search page: every result (up to PrnotesSearch.MAX_RESULTS) with its
 * verdict, repo#PR, date and snippet, and filters by verdict, repository and
 * subsystem, kept in the URL with the query.
 */
const PrnotesSearchPage = {
  init: () => {
    const out = document.getElementById("search-results");
    if (!out) return;
    const params = new URLSearchParams(window.location.search);
    const filters = Object.fromEntries(PRNOTES_FILTERS.map(([name]) => [name, params.get(name) || ""]));
    const form = document.querySelector(".bd-search-container form.bd-search");
    const input = form && form.querySelector('input[name="q"]');
    if (input) input.value = params.get("q") || "";
    const controls = PrnotesSearchPage.filters(filters);
    const run = () => {
      const url = new URL(window.location.href);
      // The URL keeps the query as searched: at most PRNOTES_MAX_QUERY characters.
      const {query, notice} = prnotesBoundQuery(input ? input.value : params.get("q") || "");
      url.searchParams.set("q", query);
      for (const [name, value] of Object.entries(filters)) {
        if (value) url.searchParams.set(name, value);
        else url.searchParams.delete(name);
      }
      window.history.replaceState({}, "", url);
      PrnotesSearchPage.run(out, query, filters, notice);
    };
    controls.addEventListener("change", (event) => {
      filters[event.target.name] = event.target.value;
      run();
    });
    if (form)
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        run();
      });
    out.before(controls);
    if ((params.get("q") || "").trim()) run();
  },

  /** The filter controls, each a labelled <select> of the values the index knows. */
  filters: (chosen) => {
    const box = document.createElement("div");
    box.className = "prnotes-search-filters";
    const values = PrnotesSearch.view.entry.filters;
    for (const [name, label, all] of PRNOTES_FILTERS) {
      const field = box.appendChild(document.createElement("label"));
      field.className = "prnotes-search-filter";
      field.append(label);
      const select = field.appendChild(document.createElement("select"));
      select.name = name;
      const choices = [["", all], ...values[name].map((v) => (Array.isArray(v) ? v : [v, v]))];
      for (const [value, text] of choices) {
        const option = select.appendChild(document.createElement("option"));
        option.value = value;
        option.textContent = text;
      }
      // A value the index does not know (a bookmarked filter of a renamed subsystem) still shows.
      if (chosen[name] && !choices.some(([value]) => value === chosen[name])) {
        const option = select.appendChild(document.createElement("option"));
        option.value = option.textContent = chosen[name];
      }
      select.value = chosen[name];
    }
    return box;
  },

  _run: 0,

  run: async (out, query, filters, notice = "") => {
    const run = ++PrnotesSearchPage._run;
    out.dataset.prnotesState = "searching";
    const heading = document.createElement("h2");
    heading.textContent = "正在搜索";
    const summary = document.createElement("p");
    summary.className = "search-summary";
    const partial = document.createElement("p");
    partial.className = "prnotes-partial";
    partial.hidden = true;
    const list = document.createElement("ul");
    list.className = "search";
    list.setAttribute("role", "list");
    out.replaceChildren(...[heading, prnotesCutNotice(notice, "p"), summary, partial, list].filter((e) => e));
    if (!query) {
      heading.textContent = "搜索结果";
      summary.textContent = "请输入要搜索的词。";
      out.dataset.prnotesState = "done";
      return;
    }
    let result, rows;
    try {
      result = await PrnotesSearch.search(query, filters);
      rows = await PrnotesSearch.pages(result.rows.map(([p]) => p));
    } catch (error) {
      if (run === PrnotesSearchPage._run) {
        heading.textContent = "搜索结果";
        summary.textContent = PRNOTES_FAILED;
      }
      console.error(error.message);
      return;
    }
    if (run !== PrnotesSearchPage._run) return;
    const filtered = Object.values(filters).some((v) => v);
    rows.forEach((row, i) => {
      const item = list.appendChild(document.createElement("li"));
      item.className = "kind-text";
      const link = item.appendChild(document.createElement("a"));
      link.href = prnotesUrl(row[0]);
      link.dataset.score = result.rows[i][1];
      link.textContent = row[1];
      link.addEventListener("click", () => prnotesRememberHighlight(link.href, result.matched));
      prnotesMarkElement(link, result.matched);
      item.appendChild(prnotesMeta(row));
      PrnotesFragments.get(row[0]).then((text) => {
        if (run !== PrnotesSearchPage._run) return;
        const context = item.appendChild(document.createElement("p"));
        context.className = "context";
        context.textContent = prnotesSnippet(text, result.matched);
        prnotesMarkElement(context, result.matched);
      });
    });
    heading.textContent = "搜索结果";
    summary.textContent = rows.length
      ? `“${query}”：找到 ${rows.length} 个页面${filtered ? "（已筛选）" : ""}`
      : `没有找到与“${query}”匹配的${filtered ? "、符合筛选条件的" : ""}页面。`;
    partial.textContent = rows.length ? prnotesPartialLine(result) : "";
    partial.hidden = !partial.textContent;
    out.dataset.prnotesState = "done";
  },
};

/** Start: the index's entry has loaded with this script. */
const prnotesInit = () => {
  const entry = window.PRNOTES_SEARCH_ENTRY;
  PrnotesSearch.use(new PrnotesIndex(new URL(prnotesRoot(), window.location.href).href, entry));
  prnotesHighlightPage();
  const pagename = typeof DOCUMENTATION_OPTIONS === "undefined" ? "" : DOCUMENTATION_OPTIONS.pagename;
  if (pagename === "search") PrnotesSearchPage.init();
  const dialog = document.getElementById("pst-search-dialog");
  if (dialog) PrnotesDialog.init(dialog);
};

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", prnotesInit);
else prnotesInit();
