"""The Sphinx configuration of every PR 精读笔记 site.

A site's ``conf.py`` is one line, ``from prnotes.sphinxext.defaults import *``
(``prnotes init`` writes it); a value set after that line overrides the
default. The templates, static files and the book's style ship in this
package, so a site holds nothing but its configuration, its seeds and,
when it wants its own, its taxonomy.
"""

from importlib.metadata import version as _package_version
from pathlib import Path as _Path

_HERE = _Path(__file__).resolve().parent

project = "PR 精读笔记"
author = "PR 精读笔记"
copyright = "PR 精读笔记"
language = "zh_CN"
# The version of the prnotes package that made the site (the EPUB must have one).
version = release = _package_version("prnotes")
root_doc = "index"

extensions = ["myst_parser", "sphinx_design", "prnotes.sphinxext", "notfound.extension"]

# Only the landing page and the generated notes are pages; everything else in
# the repository (README, seeds, scripts, tests, .venv) is not. Sphinx walks
# every folder not excluded to find its sources: the excluded ones below are
# the repository's other folders (.git grows with every commit), so a build
# looks only where pages are. The list is fixed: a change to it is a change
# of configuration, and rebuilds everything.
include_patterns = ["index.md", "notes/**"]
exclude_patterns = [
    ".ci",
    ".git",
    ".github",
    ".venv",
    ".venv-latest",
    "_build",
    "bench",
    "docs",
    "node_modules",
    "requirements",
    "scripts",
    "seeds",
    "tests",
]
source_suffix = {".md": "markdown"}

# Seed text is untrusted. The converter escapes it; these settings make sure
# nothing that slipped through could pass HTML through or read files.
# attrs_inline: the converter marks each follow-up sentence of a note as a
# span, [text]{#followup-1 .prnotes-followup}; seed text cannot, its brackets
# and braces are escaped.
myst_enable_extensions = ["fieldlist", "colon_fence", "attrs_inline"]
myst_disable_syntax = ["html_block", "html_inline"]
myst_heading_anchors = 0
docutils_settings = {"raw_enabled": False, "file_insertion_enabled": False}
# Smart quotes would rewrite the advice text ("" -> “”, -- -> –).
smartquotes = False

# Chinese by CJK bigrams on both the index and the query side, with code
# identifiers and PR numbers: scripts/prnotes/sphinxext/search/.
html_search_language = "zh_prnotes"

html_theme = "pydata_sphinx_theme"
html_title = "PR 精读笔记"
html_show_sourcelink = False
html_copy_source = False
# No general index: the notes have no index entries, and the symbol index
# (notes/symbols) is the site's index of names.
html_use_index = False
html_last_updated_fmt = None
templates_path = [str(_HERE / "templates")]
html_static_path = [str(_HERE / "static")]
# Every page's sidebar lists the subsystems, not the notes (see
# templates/prnotes-nav.html): a sidebar of all notes makes the site grow as N².
html_sidebars = {"index": [], "**": ["prnotes-nav.html"]}
html_css_files = ["prnotes.css"]
# An icon of our own: without one, every browser asks for /favicon.ico and
# gets a 404 (which the browser tests count as an error).
html_favicon = str(_HERE / "static" / "favicon.svg")
# The colour mode a first visit starts in (the theme logs an error without one).
html_context = {"default_mode": "auto"}
html_theme_options = {
    "navigation_depth": 2,
    "show_nav_level": 1,
    "collapse_navigation": True,
    "show_toc_level": 1,
    "navbar_align": "left",
    # The header: a 子系统 menu and the reader tools (templates/prnotes-header.html);
    # the theme renders the same template in the phone's drawer.
    "navbar_center": ["prnotes-header.html"],
    # Search and the colour mode stay in the header at every width: on a
    # phone the theme would put the colour mode at the end of the drawer,
    # below the whole navigation, out of reach. The header's end keeps the
    # upstream repositories (the drawer's end, on a phone).
    "navbar_persistent": ["search-button-field", "theme-switcher"],
    "navbar_end": ["navbar-icon-links"],
    "search_bar_text": "搜索笔记、PR 编号、代码符号…",
    # Off: the search script lists results in the dialog as the reader types
    # (scripts/prnotes/sphinxext/search/ui.js). The theme's own needs the
    # whole index loaded with every page and waits 300 ms after each key.
    "search_as_you_type": False,
    "icon_links_label": "上游仓库",
    # The "On this page" sidebar: pages with nothing to list in it say so in
    # their metadata (scripts/prnotes/sphinxext/page/pagetoc.py).
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    # The switch of the j/k shortcuts, on the pages that have them (templates/prnotes-keys.html).
    "footer_end": ["prnotes-keys.html"],
    # Templates that never render empty: the theme need not render each of them
    # a second time per page to find out (a documented theme option).
    "templates_skip_empty_check": [
        "navbar-logo.html",
        "prnotes-header.html",
        "search-button-field.html",
        "theme-switcher.html",
        "navbar-icon-links.html",
        "copyright.html",
        "prnotes-nav.html",
        "page-toc.html",
    ],
}

# The PDF book: `make pdf` (prnotes pdf) builds it from the HTML build's
# environment: its root, notes/book, is a page of its own whose toctree makes
# a chapter per subsystem (a book of some notes is built from a staged copy
# with the same root). xelatex with ctex/xeCJK; the fonts, headings and
# badges are set in prnotes-book.sty, which the extension ships with the
# LaTeX sources.
latex_engine = "xelatex"
latex_documents = [("notes/book", "prnotes.tex", project, author, "manual")]
latex_use_xindy = False  # no general index: the book has none, and xindy is slow
latex_show_urls = "no"
latex_elements = {
    "papersize": "a4paper",
    # One-sided: read on screens and tablets as often as on paper.
    "extraclassoptions": "openany,oneside",
    "cmappkg": "",
    "pointsize": "11pt",
    # ctex instead of babel: Chinese captions (目录, 第一章) and CJK spacing.
    "babel": "",
    "fontenc": r"\usepackage[scheme=chinese,heading=false,fontset=none]{ctex}",
    "fontpkg": "",
    "fncychap": "",
    "preamble": r"\usepackage{prnotes-book}",
    "makeindex": "",
    "printindex": "",
    "maketitle": r"\prnotesmaketitle",
}

# The EPUB (make epub): _build/epub/prnotes.epub, the whole site as a book
# for e-readers, checked with epubcheck by tests/test_epub.py. EPUB wants a
# BCP 47 language tag (zh-CN), where Sphinx's `language` is zh_CN. The
# fonts: prnotes-epub.css names the Chinese fonts e-readers ship, then the
# generic families, and embeds none (a CJK font is megabytes). The search
# scripts stay out (templates/layout.html); the extension closes the
# head's tags as XHTML wants (prnotes/sphinxext/book/epub.py).
epub_basename = "prnotes"
epub_language = "zh-CN"
epub_title = project
epub_description = "PR 精读笔记：每个 PR 一篇中文阅读笔记，按子系统归类，按 PR 编号互相链接。"
# One identifier for every edition of the book: Sphinx writes it as the
# package's identifier and its id, so it is an XML name without colons.
epub_uid = epub_identifier = "prnotes-b4fa87d4-4b52-4fdd-b87c-9d0ac6559580"
# The site's prnotes.css styles the site's theme, with CSS that EPUB readers
# do not parse: the book has a stylesheet of its own.
epub_css_files = ["prnotes-epub.css"]
epub_show_urls = "no"
epub_use_index = False
# The landing page's toctrees are hidden (the site shows its own menus): the
# book's table of contents lists them all the same.
epub_tocscope = "includehidden"
epub_tocdepth = 2  # the parts (subsystems, lists) and their notes, not the notes' sections
epub_exclude_files = ["search.html", "404.html", "_static/prnotes.css"]

# Where the site is published (html_baseurl), where its sources are and where
# its PDF is: read from the host's environment at each build when not set
# here (prnotes/sphinxext/site/address.py).
