"""Write: put rendered pages on disk, touching only what changed.

:mod:`.files` is the one compare-before-write helper every file goes
through; :mod:`.cache` keeps what a conversion can reuse next time, and
:mod:`.convert` runs parse -> model -> render -> write for a project.
"""
