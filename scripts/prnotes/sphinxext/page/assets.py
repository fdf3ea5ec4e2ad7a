"""What a page loads before it is drawn: only what it uses.

Sphinx and sphinx-design put their files in the head of every page, where
each stylesheet and each script without ``defer`` holds up the first paint
(the browser opens a handful of connections to a host, so a dozen small
files wait for each other on a slow phone line). A page of the site leaves
out:

- ``doctools.js`` and ``translations.js`` (Sphinx): nothing calls them. The
  theme's script and the site's search read only ``DOCUMENTATION_OPTIONS``
  (``documentation_options.js`` stays), the search has its own ``/`` key
  (``search/loader.js``) and Sphinx's own search is never loaded
  (``search/publish.py``);
- ``design-tabs.js`` (sphinx-design), on a page without a tab set: the
  converter writes none;
- ``pygments.css``, on a page without a code block: only highlighted code
  uses it.

The EPUB keeps its theme's head.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

from .. import _internals
from ..site import web_site

UNUSED_SCRIPTS = ("_static/doctools.js", "_static/translations.js")
TABS_SCRIPT = "_static/design-tabs.js"
CODE_STYLESHEET = "_static/pygments.css"


def page_assets(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if not web_site(app):
        return
    for script in UNUSED_SCRIPTS:
        _internals.drop_script(context, script)
    # A page without tabs or code needs neither their script nor their style.
    if doctree is None or not any("sd-tab-set" in node["classes"] for node in doctree.findall(nodes.Element)):
        _internals.drop_script(context, TABS_SCRIPT)
    if doctree is None or next(doctree.findall(nodes.literal_block), None) is None:
        _internals.drop_stylesheet(context, CODE_STYLESHEET)


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", page_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
