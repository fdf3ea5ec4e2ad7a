extensions = ["myst_parser", "sphinx_design"]
myst_enable_extensions = ["colon_fence"]
