"""Facts a page shows that come from the build, not from its source.

Two such facts: a digest's date (when its seed file was committed, from git:
:mod:`prnotes.history`) and the address of the project's repository, for the
编辑来源 link at the bottom of each note. Pages hold placeholders
(``{prnotes-digest-date}`` and ``{prnotes-source}``) that a post-transform
fills when the page is written, so the committed pages never contain a date.

Both facts are looked up once per build. When one changes since the last
build (a digest is committed, say), the pages that show it are written again
without being read again: :data:`USERS` records, per document, the facts it
shows, and the ``env-updated`` handler returns the documents to write. Lists
built when a page is written (the watch list shows each item's digest date)
ask :func:`changed_dates` which dates changed.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform

from .. import contract
from ..history import added_dates
from .docdata import DocData

UNCOMMITTED = "未提交"
SOURCE_TEXT = "编辑来源"
# document -> the facts it shows: ("date", seed path) or ("source", "")
USERS = DocData("prnotes_buildtime_users")
_STATE = "prnotes_buildtime"  # env attribute: the facts of the last build
_NOW = "prnotes_buildtime_now"  # env attribute: this build's facts (see :func:`look_up`)


class digest_date(nodes.Inline, nodes.Element):
    """The date of the digest ``seed``; filled in at write time."""


class source_link(nodes.Inline, nodes.Element):
    """The 编辑来源 link to ``seed`` at ``line``; filled in at write time, on the site only."""


def date_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [digest_date(rawtext, seed=contract.unquote_path(text))], []


def source_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    path, _, line = text.strip().rpartition(":")
    return [source_link(rawtext, seed=contract.unquote_path(path), line=int(line) if line.isdigit() else 1)], []


_SCP_RE = re.compile(r"^[\w.-]+@([\w.-]+):(.+?)(?:\.git)?/?$")
_HTTPS_RE = re.compile(r"^https://([^/\s]+)/(.+?)(?:\.git)?/?$")


def web_url(remote: str) -> str:
    """A git remote as the web address of the repository ('' if it is not one)."""
    remote = remote.strip()
    for pattern in (_SCP_RE, _HTTPS_RE):
        if match := pattern.match(remote):
            return f"https://{match.group(1)}/{match.group(2)}"
    return ""


def _origin(root: Path) -> str:
    try:
        proc = subprocess.run(["git", "remote", "get-url", "origin"], cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return web_url(proc.stdout) if proc.returncode == 0 else ""


def look_up(app: Sphinx) -> None:
    """On ``builder-inited``: this build's facts, ``{"dates": {...}, "source": url}``, once."""
    root = Path(app.confdir)
    source = web_url(app.config.prnotes_source_url) or _origin(root)
    setattr(app.env, _NOW, {"dates": added_dates(root), "source": source})


def facts(env: BuildEnvironment) -> dict:
    return getattr(env, _NOW, None) or {"dates": {}, "source": ""}


def date_of(env: BuildEnvironment, seed: str) -> str | None:
    """``YYYY-MM-DD`` of a digest (the author's own calendar day), or None before its commit."""
    when = facts(env)["dates"].get(seed)
    return when[:10] if when else None


def added_at(env: BuildEnvironment, seed: str) -> str | None:
    """The full ISO time of a digest's commit, or None."""
    return facts(env)["dates"].get(seed)


def source_url(env: BuildEnvironment, seed: str, line: int) -> str | None:
    base = facts(env)["source"]
    if not base:
        return None
    return f"{base}/blob/{env.config.prnotes_source_branch}/{contract.quote_path(seed)}#L{line}"


def collect(app: Sphinx, doctree: nodes.document) -> None:
    used = {("date", n["seed"]) for n in doctree.findall(digest_date)}
    used |= {("source", "") for _ in doctree.findall(source_link)}
    users = USERS.of(app.env)
    if used:
        users[app.env.docname] = used
    else:
        users.pop(app.env.docname, None)


def date_node(env, seed: str) -> nodes.inline:
    """A digest's date as pages show it: this build's, from git, or 未提交."""
    return nodes.inline("", date_of(env, seed) or UNCOMMITTED, classes=["prnotes-date"])


class FillDates(SphinxPostTransform):
    """Replace the date placeholders with this build's dates."""

    default_priority = 5

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(digest_date)):
            node.replace_self(date_node(self.env, node["seed"]))


class SourceLinks(SphinxPostTransform):
    """The 编辑来源 links, on the site."""

    default_priority = 5
    formats = ("html",)

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(source_link)):
            url = source_url(self.env, node["seed"], node["line"])
            if url is None:
                continue  # DropSourceLinks removes it
            parent = node.parent
            node.replace_self(nodes.reference("", SOURCE_TEXT, refuri=url, reftitle=f"{node['seed']} 第 {node['line']} 行"))
            if isinstance(parent, nodes.paragraph):
                parent["classes"] += ["prnotes-source", "no-search"]


class DropSourceLinks(SphinxPostTransform):
    """Whatever has no 编辑来源 link (the book, a site without a repository address) drops the placeholder."""

    default_priority = 6

    def run(self, **kwargs) -> None:
        for node in list(self.document.findall(source_link)):
            parent = node.parent
            parent.remove(node)
            if isinstance(parent, nodes.paragraph) and not parent.astext().strip():
                parent.parent.remove(parent)


def note_changes(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    now = facts(env)
    before = getattr(env, _STATE, None) or {"dates": {}, "source": ""}
    changed_facts = {("date", p) for p in before["dates"].keys() | now["dates"].keys()
                     if before["dates"].get(p) != now["dates"].get(p)}  # fmt: skip
    if before["source"] != now["source"]:
        changed_facts.add(("source", ""))
    app._prnotes_changed_facts = changed_facts
    setattr(env, _STATE, now)
    return []


def changed_dates(app: Sphinx) -> set[str]:
    """Seed paths of the digests whose date changed since the last build (known after ``env-get-outdated``)."""
    return {seed for kind, seed in getattr(app, "_prnotes_changed_facts", set()) if kind == "date"}


def pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    changed = getattr(app, "_prnotes_changed_facts", set())
    if not changed:
        return []
    return sorted(d for d, used in USERS.of(env).items() if used & changed and d in env.all_docs)


def setup(app: Sphinx) -> None:
    # Where the 编辑来源 links point: conf.py sets it from the hosting
    # service's variables; empty means git's `origin`, and no link without one.
    app.add_config_value("prnotes_source_url", "", "html", str)
    app.add_config_value("prnotes_source_branch", "main", "html", str)
    skip = (lambda self, node: None, lambda self, node: None)
    for node in (digest_date, source_link):
        app.add_node(node, html=skip, latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_role(contract.DIGEST_DATE_ROLE, date_role)
    app.add_role(contract.SOURCE_ROLE, source_role)
    app.connect("builder-inited", look_up)
    app.add_post_transform(FillDates)
    app.add_post_transform(SourceLinks)
    app.add_post_transform(DropSourceLinks)
    app.connect("doctree-read", collect)
    USERS.connect(app)
    app.connect("env-get-outdated", note_changes)
    app.connect("env-updated", pages_to_rewrite)
