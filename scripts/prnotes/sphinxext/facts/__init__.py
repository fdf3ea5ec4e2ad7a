"""What the Sphinx side knows about each note and each build: the facts a
note page declares (:mod:`.notes`) and their summaries, the dates that come
from the build, the archive's reading order, what a build changed, and the
notes another build of the site's volumes holds (:mod:`.across`).
"""

from __future__ import annotations

from sphinx.application import Sphinx

MODULES = ("state", "notes", "summaries", "buildtime", "stream", "across")


def setup_facts(app: Sphinx) -> None:
    for module in MODULES:
        app.setup_extension(f"{__name__}.{module}")
