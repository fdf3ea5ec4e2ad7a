"""Turn PR digest seed files into a Sphinx/MyST notes site.

The pipeline is ``parse -> model -> render -> write``:

* :mod:`prnotes.parse.seeds` reads seed files and ``prs.toml`` into raw entries;
* :mod:`prnotes.model.site` validates them across files and builds the site model,
  with :mod:`prnotes.model.classify` and :mod:`prnotes.parse.refs` deriving the metadata;
* :mod:`prnotes.render` turns the model into page text, without touching disk;
* :mod:`prnotes.write.files` puts the pages on disk, changing only what changed.

:mod:`prnotes.sphinxext` is the Sphinx side: PR roles and their resolution.
:mod:`prnotes.build.audit` checks a finished build against the seeds.
"""
