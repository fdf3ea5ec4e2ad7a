"""PR and issue references: ``{pr}`#N <owner/repo#N>``` and friends.

The roles make ``pending_xref`` nodes; :func:`resolve` is the one place that
decides where they go: the site's note for that PR when there is one, else
GitHub. Whether a note exists follows from its docname alone
(:func:`prnotes.contract.note_docname`), or from the link map when another
build of the archive's volumes holds it (:mod:`.volumes`). :func:`one_pass_resolver` resolves a
page's references before Sphinx's resolver does, all in one pass
(:mod:`.splice`): Sphinx replaces them one by one, which costs time quadratic
in the number of references in one paragraph. A reference it cannot resolve
(a malformed target) is left to Sphinx, which warns about it.

When a build adds or removes a note, pages that mention its PR must be written
again even though their source did not change; :class:`Mentions`
finds them from the mentions recorded per document in ``env``.
"""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.roles import XRefRole
from sphinx.transforms.post_transforms import SphinxPostTransform

from ... import contract
from .. import _internals
from ..facts import state
from . import splice, volumes

REFTYPES = {"pr": "pull", "issue": "issues"}


class PrRole(XRefRole):
    """``{pr}`` / ``{issue}``; the ``-code`` variants show the text as code."""

    def __init__(self, reftype: str, code: bool) -> None:
        super().__init__(innernodeclass=nodes.literal if code else nodes.inline, warn_dangling=True)
        self._reftype = reftype

    def run(self):
        # XRefRole derives the type from the role name; ours is fixed.
        self.refdomain, self.reftype = "", self._reftype
        self.classes = ["xref", f"prnotes-{self._reftype}"]
        if self.disabled:
            return self.create_non_xref_node()
        return self.create_xref_node()


def resolve(app: Sphinx, env: BuildEnvironment, node: addnodes.pending_xref, contnode: nodes.Element):
    """Our page if it exists, else GitHub."""
    if node.get("reftype") not in REFTYPES:
        return None
    parsed = contract.parse_target(node["reftarget"])
    if parsed is None:
        return None  # Sphinx warns: the converter never writes such a target
    return link(app, env, node["refdoc"], node["reftype"], *parsed, contnode)


def one_pass_resolver(app: Sphinx) -> type[SphinxPostTransform]:
    """The post-transform that resolves a page's PR and issue references as
    :func:`resolve` says, all in one pass, before Sphinx's resolver (for ``app``:
    a transform has no documented way to its application's builder)."""

    class ResolvePrLinks(SphinxPostTransform):
        default_priority = _internals.REFERENCES_RESOLVER_PRIORITY - 5

        def run(self, **kwargs) -> None:
            found = []
            for node in self.document.findall(addnodes.pending_xref):
                if node.get("reftype") in REFTYPES and (new := resolve(app, self.env, node, node[0].deepcopy())):
                    found.append((node, new))
            splice.replace_selves(found)  # as Sphinx's resolver would, each with replace_self

    return ResolvePrLinks


def link(app: Sphinx, env: BuildEnvironment, refdoc: str, reftype: str, repo: str, number: int, contnode: nodes.Element):
    """A reference of type ``reftype`` to ``repo#number`` on page ``refdoc``, as :func:`resolve` makes it."""
    github = contract.github_url(repo, number, REFTYPES[reftype])
    if reftype == "pr":
        docname = contract.note_docname(repo, number, "")
        if docname in _internals.documents(env) or volumes.elsewhere(app, docname):
            uri = app.builder.get_relative_uri(refdoc, docname)
            ref = nodes.reference("", "", internal=True, refuri=uri, reftitle=f"{repo}#{number} 的笔记")
            ref += contnode
            if app.builder.format != "html":
                return ref
            # The note, and beside it the pull request itself: one click either way.
            both = nodes.inline("", "", classes=["prnotes-ref"])
            both += ref
            both += github_link(repo, number, github)
            return both
    ref = nodes.reference("", "", internal=False, refuri=github, reftitle=f"{repo}#{number}（GitHub）")
    ref += contnode
    return ref


def github_link(repo: str, number: int, url: str) -> nodes.reference:
    """A small link to the PR on GitHub: an icon (drawn by prnotes.css) named by its title.

    It holds no text, so the page's text (copied, searched, audited) reads
    exactly as the note does.
    """
    return nodes.reference("", "", internal=False, refuri=url, classes=["prnotes-gh"], reftitle=f"在 GitHub 上打开 {repo}#{number}")


class Mentions(state.Collector[set]):
    """Docname -> the note docnames its PR references point at. A page's PR
    links change target when the note for that PR comes or goes: then it is
    written again."""

    name = "prnotes_mentions"

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        targets = set()
        for node in doctree.findall(addnodes.pending_xref):
            if node.get("reftype") == "pr":
                parsed = contract.parse_target(node["reftarget"])
                if parsed:
                    targets.add(contract.note_docname(*parsed, ""))
        if targets:
            self.of(app.env)[app.env.docname] = targets

    def after(self, app: Sphinx, env: BuildEnvironment, outdated: state.Outdated, before: None) -> list[str]:
        came_or_went = outdated.added | outdated.removed
        if not came_or_went:
            return []
        return [d for d, targets in self.of(env).items() if targets & came_or_went]


def setup(app: Sphinx) -> dict:
    app.setup_extension(f"{__package__}.volumes")  # notes another build holds
    for name, reftype in (("pr", "pr"), ("issue", "issue")):
        app.add_role(name, PrRole(reftype, code=False))
        app.add_role(f"{name}-code", PrRole(reftype, code=True))
    app.add_post_transform(one_pass_resolver(app))
    app.connect("missing-reference", resolve)  # references made after the transform ran
    app.add_env_collector(Mentions)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
