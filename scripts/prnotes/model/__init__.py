"""Model: the site as validated notes with everything derived from them.

:mod:`.site` builds it from the parsed seeds; the facts it derives once per
note come from :mod:`.taxonomy` and :mod:`.filing` (the subsystem),
:mod:`.classify` (verdict, audiences), :mod:`.tags`, :mod:`.summary`,
:mod:`.symbols`, :mod:`.followups` and :mod:`.similar`.
"""
