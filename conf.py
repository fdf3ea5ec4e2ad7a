"""Sphinx configuration of this notes site: the prnotes defaults.

Set a value below the import to change it (the defaults, with what each
does: prnotes/sphinxext/defaults.py).
"""

from prnotes.sphinxext.defaults import *  # noqa: F403
