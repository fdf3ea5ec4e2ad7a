# PR references alone: the site's note when there is one, else GitHub; the
# sitemap and the meta tags of the pages.
extensions = ["myst_parser", "prnotes.sphinxext.links.prlinks", "prnotes.sphinxext.site.sitemap", "prnotes.sphinxext.page.metatags"]
html_baseurl = "https://notes.example.org/site/"
project = "Fixture & <site>"
smartquotes = False
