"""The notes another build of the site holds, for the site in volumes (docs/volumes.md).

A closed volume's build writes what it knows of its notes (their facts and
their summaries: the stores of :data:`STORES`) to the file
``prnotes_facts_out`` names; the hub's build reads the files
``prnotes_facts_in`` names (``os.pathsep`` between them) before it reads a
page, so that its lists, feeds and sitemap hold the notes it does not
build, as one build of the whole site would (相似笔记 comes from the link
map: :func:`prnotes.sphinxext.links.similar.given`). An entry of a note the
build holds itself is never replaced, and what the last build imported goes
first. :func:`prnotes.sphinxext.facts.notes.present` counts the imported notes.
"""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import SphinxError

from ... import contract
from ...parse import regular
from .. import _internals
from . import state

FACTS_OUT, FACTS_IN = "prnotes_facts_out", "prnotes_facts_in"
# The stores of what a note page holds that pages of other builds show.
STORES = ("prnotes_note_facts", "prnotes_summaries")
MAX_BYTES = 256 << 20


def export(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or not app.config[FACTS_OUT]:
        return
    from ...write.files import write_file

    documents = _internals.documents(app.env)
    data = {
        name: {d: v for d, v in sorted(state.store(app.env, name).items()) if d in documents and contract.is_note_docname(d)}
        for name in STORES
    }
    write_file(Path(app.config[FACTS_OUT]), pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))


def import_(app: Sphinx, env, docnames: list[str]) -> None:
    if not app.config[FACTS_IN]:
        return
    sources = _internals.sources(env)
    stores = {name: state.store(env, name) for name in STORES}
    for store in stores.values():
        for docname in [d for d in store if d not in sources]:
            del store[docname]
    for name in app.config[FACTS_IN].split(os.pathsep):
        try:
            found = pickle.loads(regular.read_regular(Path(name), MAX_BYTES))
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError) as exc:
            raise SphinxError(f"{FACTS_IN}: {name} is no facts file of a volume ({exc}); build the volumes again") from None
        if not isinstance(found, dict):
            raise SphinxError(f"{FACTS_IN}: {name} is no facts file of a volume; build the volumes again")
        for key, store in stores.items():
            store.update((d, v) for d, v in dict(found.get(key) or {}).items() if d not in sources)


def setup(app: Sphinx) -> dict:
    app.add_config_value(FACTS_OUT, "", "", types=[str])
    app.add_config_value(FACTS_IN, "", "", types=[str])
    app.connect("env-before-read-docs", import_)
    app.connect("build-finished", export)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
