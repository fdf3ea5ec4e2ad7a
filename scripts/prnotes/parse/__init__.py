"""Parse: read what a project holds into raw records.

The seed files and ``prs.toml`` (:mod:`.seeds`), the characters they may
hold (:mod:`.chars`), the inline pieces and sentences of advice text
(:mod:`.refs`, :mod:`.sentences`), and when each digest arrived, from git
(:mod:`.history`). Every file prnotes reads is opened by :mod:`.regular`:
regular files only, never waited on, read to a bound.
"""
