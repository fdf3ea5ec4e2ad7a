extensions = ["myst_parser", "prnotes.sphinxext.page.pagetoc"]
html_theme = "pydata_sphinx_theme"
html_theme_options = {"secondary_sidebar_items": ["page-toc"], "templates_skip_empty_check": ["page-toc.html"]}
html_sidebars = {"**": []}
