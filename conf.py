"""Sphinx configuration of PR 精读笔记."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "scripts"))

project = "PR 精读笔记"
author = "PR 精读笔记"
copyright = "PR 精读笔记"
language = "zh_CN"
root_doc = "index"

extensions = [
    "myst_parser",
    "sphinx_design",
    "prnotes.sphinxext",
]

# Only the landing page and the generated notes are pages; everything else in
# the repository (README, seeds, scripts, tests, .venv) is not.
include_patterns = ["index.md", "notes/**"]
exclude_patterns = ["_build", ".venv"]
source_suffix = {".md": "markdown"}

# Seed text is untrusted. The converter escapes it; these settings make sure
# nothing that slipped through could pass HTML through or read files.
myst_enable_extensions = ["fieldlist", "colon_fence"]
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
html_last_updated_fmt = None
html_static_path = ["_static"]
html_css_files = ["prnotes.css"]
html_theme_options = {
    "navigation_depth": 2,
    "show_nav_level": 1,
    "collapse_navigation": True,
    "show_toc_level": 1,
    "navbar_align": "left",
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
