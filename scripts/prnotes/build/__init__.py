"""Build: what runs after the pages are written.

Sphinx in a process that ends with the command (:mod:`.sphinx_build`), the
stamp that says whether a build would change anything (:mod:`.stamp`), the
PDF book and its volumes (:mod:`.pdf`, :mod:`.subset`) and the audit of a
finished build against the seeds (:mod:`.audit`).
"""


class BuildError(Exception):
    """A step of a build failed; the message says which and why."""
