/*
 * PR 精读笔记 search: the loader, inline on every page (about 2 KB, its
 * comments left out).
 * Nothing of the search loads with a page: when a search starts (the search
 * dialog opens, a key is typed into it, the search page opens, or a page
 * opened from a result has words to mark), this fetches the index's entry
 * (_search/entry.json) and then the search script it names.
 *
 * It also gives the dialog what must work before the script is there: "/"
 * opens it (as on GitHub), its close button closes it, and it remembers
 * whether an input method is composing.
 */
(() => {
  let started = null;
  let composing = false;
  window.PRNOTES_SEARCH_COMPOSING = () => composing;
  const start = () => {
    if (started) return started;
    const root = document.documentElement.dataset.content_root || "";
    started = fetch(`${root}_search/entry.json`, {cache: "no-cache"})
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json();
      })
      .then((entry) => new Promise((resolve, reject) => {
        window.PRNOTES_SEARCH_ENTRY = entry;
        const script = document.createElement("script");
        script.src = `${root}_search/${entry.script}`;
        script.addEventListener("load", resolve);
        script.addEventListener("error", () => reject(new Error(`${script.src} did not load`)));
        document.head.appendChild(script);
      }))
      .catch((error) => console.error(`prnotes: the search did not start: ${error.message}`));
    return started;
  };
  window.prnotesSearchStart = start;
  const editable = (el) => el && el.closest && el.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])");
  const ready = () => {
    const dialog = document.getElementById("pst-search-dialog");
    if (dialog) {
      new MutationObserver(() => dialog.open && start()).observe(dialog, {attributes: true, attributeFilter: ["open"]});
      dialog.addEventListener("input", start);
      dialog.addEventListener("compositionstart", () => (composing = true));
      dialog.addEventListener("compositionend", () => (composing = false));
      const close = dialog.querySelector(".prnotes-search-close");
      if (close) close.addEventListener("click", () => dialog.close());
      if (dialog.open) start();
    }
    document.addEventListener("keydown", (event) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (editable(event.target) || editable(document.activeElement)) return;
      // The search page's own field, else the dialog.
      const field = document.querySelector(":not(#pst-search-dialog) > form.bd-search input[name=q]");
      if (!field && (!dialog || dialog.open)) return;
      event.preventDefault();
      event.stopPropagation();
      if (field) field.focus();
      else {
        dialog.showModal();
        dialog.querySelector("input[name=q]").focus();
      }
    }, true);
    let marks = null;
    try {
      marks = sessionStorage.getItem("prnotes-search-highlight");
    } catch (e) {
      // no storage
    }
    const options = typeof DOCUMENTATION_OPTIONS === "undefined" ? {} : DOCUMENTATION_OPTIONS;
    if (options.pagename === "search" || marks) start();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
