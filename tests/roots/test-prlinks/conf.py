# PR references alone: the site's note when there is one, else GitHub; the
# sitemap and the meta tags of the pages.
extensions = ["myst_parser", "prnotes.sphinxext.prlinks", "prnotes.sphinxext.sitemap", "prnotes.sphinxext.metatags"]
html_baseurl = "https://notes.example.org/site/"
project = "Fixture & <site>"
smartquotes = False
