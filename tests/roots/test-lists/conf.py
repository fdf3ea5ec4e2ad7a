# The lists feature alone: note pages declare their facts, a hub page lists them.
extensions = ["myst_parser", "sphinx_design", "prnotes.sphinxext.lists.fill"]
myst_enable_extensions = ["colon_fence", "fieldlist"]
root_doc = "index"
