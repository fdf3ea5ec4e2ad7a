"""Facts a page shows that come from the build, not from its source.

Two such facts: a digest's date (when its seed file was committed, from git:
:mod:`prnotes.parse.history`) and the address of the project's repository at the
branch or tag being built, for the 编辑来源 link at the bottom of each note.
A date is shown as it is known: the day, 未提交 (the seed is in a git work
tree but no commit holds it yet) or 日期未知 (no git, or a shallow clone
that could not be deepened, or a commit date git cannot print). A shallow
clone that could not be deepened and a date git cannot print are Sphinx
warnings (``-W`` fails rather than publishing the site with dates missing);
a build without git is one ``warning:`` line on stderr, as the conversion's
warnings are, because such a copy (a release tarball) shows nothing false. Pages hold placeholders
(``{prnotes-digest-date}`` and ``{prnotes-source}``) that a post-transform
fills when the page is written, so the committed pages never contain a date.

Both facts are looked up once per build (:mod:`.state`). When one changes
since the last build (a digest is committed, say), the pages that show it are
written again without being read again: :class:`Users` records, per document,
the facts it shows, and names the documents to write (a :class:`.state.Collector`). Lists built when a page is written (the watch list
shows each item's digest date) ask :func:`changed_dates` which dates changed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from ... import contract
from ...parse import history
from . import state

logger = logging.getLogger(__name__)
UNCOMMITTED = "未提交"
UNKNOWN = "日期未知"
# Where the 编辑来源 links point without a branch, a tag or git: the default branch.
DEFAULT_REF = "main"
SOURCE_TEXT = "编辑来源"
_LAST = "prnotes_buildtime"  # env attribute, kept by Users: the facts of the last build


class digest_date(nodes.Inline, nodes.Element):
    """The date of the digest ``seed``; filled in at write time."""


class source_link(nodes.Inline, nodes.Element):
    """The 编辑来源 link to ``seed`` at ``line``; filled in at write time, on the site only."""


def date_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [digest_date(rawtext, seed=contract.unquote_path(text))], []


def source_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    path, _, line = text.strip().rpartition(":")
    return [source_link(rawtext, seed=contract.unquote_path(path), line=int(line) if line.isdigit() else 1)], []


_SCP_RE = re.compile(r"^[\w.-]+@([\w.-]+):(?!/)(.+)$")
_HOST_RE = re.compile(r"[A-Za-z0-9.-]+")
_PATH_RE = re.compile(r"[^\s?#@]+")


def web_url(remote: str) -> str:
    """A git remote (``https://``, ``ssh://`` or ``user@host:path``) as the web
    address of the repository; '' if it is not one.

    Only the host (with an https port) and the path are kept: a user name,
    a password or token (``https://user:token@host/…``), a query and a
    fragment never reach a page.
    """
    remote = remote.strip()
    if match := _SCP_RE.match(remote):
        host, path = match.group(1), match.group(2)
    else:
        try:
            parts = urlsplit(remote)
            port = parts.port
        except ValueError:
            return ""
        if parts.scheme not in ("https", "ssh") or not parts.hostname:
            return ""
        host = parts.hostname + (f":{port}" if port and parts.scheme == "https" else "")
        path = parts.path
    path = path.strip("/").removesuffix(".git").strip("/")
    if not _HOST_RE.fullmatch(host.split(":")[0]) or not _PATH_RE.fullmatch(path):
        return ""
    return f"https://{host}/{path}"


def _git_out(root: Path, *args: str) -> str:
    """What ``git *args`` prints, stripped; '' when it fails or there is no git."""
    try:
        proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


def source_ref(root: Path, configured: str = "", environ: dict[str, str] | None = None) -> str:
    """The branch, tag or commit the 编辑来源 links point at: the one being built.

    ``configured`` (``prnotes_source_branch``, from ``PRNOTES_SOURCE_BRANCH``)
    first; then the hosting service's: Read the Docs' checked-out branch or
    tag (the commit for a pull request build, whose identifier is the pull
    request's number), GitHub Actions' branch or tag (the commit for a pull
    request); then git's current branch, the tag checked out, or the commit;
    :data:`DEFAULT_REF` without git.
    """
    env = os.environ if environ is None else environ
    if configured:
        return configured
    if env.get("READTHEDOCS_GIT_IDENTIFIER"):
        if env.get("READTHEDOCS_VERSION_TYPE") == "external" and env.get("READTHEDOCS_GIT_COMMIT_HASH"):
            return env["READTHEDOCS_GIT_COMMIT_HASH"]
        return env["READTHEDOCS_GIT_IDENTIFIER"]
    if env.get("GITHUB_REF_NAME"):
        if env.get("GITHUB_REF", "").startswith(("refs/heads/", "refs/tags/")):
            return env["GITHUB_REF_NAME"]
        if env.get("GITHUB_SHA"):
            return env["GITHUB_SHA"]  # a pull request's merge ref is no branch to link to
    return (
        _git_out(root, "symbolic-ref", "--short", "-q", "HEAD")
        or _git_out(root, "describe", "--tags", "--exact-match", "HEAD")
        or _git_out(root, "rev-parse", "HEAD")
        or DEFAULT_REF
    )


def _report(root: Path, past: history.History) -> None:
    """Say what is wrong with the dates: warnings for what ``-W`` must stop, a line for a copy without git."""
    if not past.in_git:
        # Not a Sphinx warning: such a copy builds under -W, and shows no false date.
        print(
            f"warning: {root}: {past.reason}: digest dates are unknown, pages show {UNKNOWN} "
            "and the feed dates entries by their files; build from a git clone to date them",
            file=sys.stderr,
        )
        return
    if past.deepened:
        logger.info("prnotes: the clone was shallow; fetched its full history for the digest dates")
    if shallow := past.shallow_seeds():
        named = ", ".join(shallow[:3]) + (f" and {len(shallow) - 3} more" if len(shallow) > 3 else "")
        why = f"fetching the rest of the history failed: {past.fetch_error}" if past.fetch_error else "it was not fetched"
        logger.warning(
            "the git clone at %s is shallow and lacks the commits that added %d digest(s) (%s), so their dates "
            "are unknown (%s); %s. Run `%s` there (or clone without --depth) and build again.",
            root, len(shallow), named, UNKNOWN, why, history.UNSHALLOW_COMMAND,
            type="prnotes", subtype="dates",
        )  # fmt: skip
    for bad in past.bad_dates:
        logger.warning(
            "%s: the commit that added it, %s, has an author date %s, so this digest's date is unknown (%s)",
            bad.seed, bad.commit[:12], history.date_problem(bad.raw), UNKNOWN,
            type="prnotes", subtype="dates",
        )  # fmt: skip


def look_up(app: Sphinx, env: BuildEnvironment, *outdated: set[str]) -> list[str]:
    """When a build starts: this build's facts, once, and what is wrong with them."""
    root = Path(app.confdir)
    past = history.read(root)
    _report(root, past)
    source = web_url(app.config.prnotes_source_url) or web_url(_git_out(root, "remote", "get-url", "origin"))
    if source:
        source = f"{source}/blob/{source_ref(root, app.config.prnotes_source_branch)}"
    now = {"dates": dict(past.dates), "unknown": sorted(past.unknown), "in_git": past.in_git, "source": source}
    if not past.in_git:
        now["times"] = history.file_times(root)
    state.of(env).dates = now
    return []


_EMPTY = {"dates": {}, "unknown": [], "in_git": True, "source": ""}


def facts(env: BuildEnvironment) -> dict:
    return state.of(env).dates or _EMPTY


def label(known: dict, seed: str) -> str:
    """What a page shows for the date of ``seed``, given a build's facts."""
    when = known["dates"].get(seed)
    if when:
        return when[:10]
    if not known.get("in_git", True) or seed in known.get("unknown", ()):
        return UNKNOWN
    return UNCOMMITTED


def added_at(env: BuildEnvironment, seed: str) -> str | None:
    """The full ISO time of a digest's commit, or None."""
    return facts(env)["dates"].get(seed)


def feed_time(env: BuildEnvironment, seed: str) -> str | None:
    """When the feed says a digest's entries were last updated: its commit's time; without git, its file's
    (:func:`prnotes.parse.history.file_times`); None for a digest in git but not committed yet."""
    known = facts(env)
    return known["dates"].get(seed) or known.get("times", {}).get(seed)


def sources_time(app: Sphinx) -> str:
    """When the sources were last changed (:func:`prnotes.parse.history.source_time`): a feed with no entry is dated so.
    Looked up once per build: every feed without entries asks."""
    return state.once(app.env, _sources_time, Path(app.confdir))


def _sources_time(env: BuildEnvironment, root: Path) -> str:
    return history.source_time(root)


def source_url(env: BuildEnvironment, seed: str, line: int) -> str | None:
    base = facts(env)["source"]
    if not base:
        return None
    return f"{base}/{contract.quote_path(seed)}#L{line}"


def date_node(env, seed: str) -> nodes.inline:
    """A digest's date as pages show it: this build's, from git, 未提交 or 日期未知."""
    return nodes.inline("", label(facts(env), seed), classes=["prnotes-date"])


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


class Users(state.Collector[set]):
    """Document -> the build-time facts it shows: ("date", seed path) or ("source", ""),
    and the pages written again when one of them changes."""

    name = "prnotes_buildtime_users"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        used = {("date", n["seed"]) for n in doctree.findall(digest_date)}
        used |= {("source", "") for _ in doctree.findall(source_link)}
        if used:
            self.of(app.env)[app.env.docname] = used

    def before(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated) -> set[tuple[str, str]]:
        """This build's facts that differ from the last build's."""
        now = facts(env)
        last = getattr(env, _LAST, None) or _EMPTY
        seeds = last["dates"].keys() | now["dates"].keys() | set(last.get("unknown", ())) | set(now.get("unknown", ()))
        if last.get("in_git", True) != now.get("in_git", True):  # every 未提交 becomes 日期未知, or back
            seeds |= {seed for used in self.of(env).values() for kind, seed in used if kind == "date"}
        changed = {("date", p) for p in seeds if label(last, p) != label(now, p)}
        if last["source"] != now["source"]:
            changed.add(("source", ""))
        setattr(env, _LAST, now)
        state.of(env).changed = changed
        return changed

    def after(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated, changed: set) -> list[str]:
        if not changed:
            return []
        return [d for d, used in self.of(env).items() if used & changed]


def changed_dates(env: BuildEnvironment) -> set[str]:
    """Seed paths of the digests whose date changed since the last build (known once reading starts)."""
    return {seed for kind, seed in state.of(env).changed if kind == "date"}


def setup(app: Sphinx) -> dict:
    app.setup_extension("prnotes.sphinxext.site.address")
    skip = (lambda self, node: None, lambda self, node: None)
    for node in (digest_date, source_link):
        app.add_node(node, html=skip, latex=skip, text=skip, man=skip, texinfo=skip)
    app.add_role(contract.DIGEST_DATE_ROLE, date_role)
    app.add_role(contract.SOURCE_ROLE, source_role)
    # After the build's state is made (0), before Users compares facts (900).
    app.connect("env-get-outdated", look_up, priority=100)
    app.add_post_transform(FillDates)
    app.add_post_transform(SourceLinks)
    app.add_post_transform(DropSourceLinks)
    app.add_env_collector(Users)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
