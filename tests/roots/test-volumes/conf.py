# A build of one volume of an archive: references to pages of the others
# (PR notes, Markdown links, labels) go where the link map says.
extensions = ["myst_parser", "prnotes.sphinxext.links.prlinks"]
project = "Volumes"
smartquotes = False
prnotes_link_map = "linkmap.json"
exclude_patterns = ["linkmap.json"]
