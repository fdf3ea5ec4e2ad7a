"""The page of one note: title, its verdict and subsystem, the advice verbatim, related notes.

Under the title, the verdict and the subsystem appear once each, as badges
that link (to the verdict's reading list and the subsystem's page), with the
tags; then 在 GitHub 上打开 #N, a labelled link to the pull request (on the
site; its title names owner/repo#N); then a few fields (repository, PR,
upstream title, audiences, digest and date; in print the verdict and the
subsystem too); then the advice. A 相关 section is there only when the note
mentions a PR or another note mentions it. Where the note came from (seed
file and line) is an 编辑来源 link at the bottom, on the site only.
"""

from __future__ import annotations

import hashlib
import io
import pickle

from .. import contract
from ..model.classify import NO_VERDICT, VERDICT_BY_SLUG
from ..model.site import Note, Site
from ..parse.refs import Ref
from .paging import note_link
from .myst import doc_link, escape, external_link, inline, marker, ref_role
from ..model.tags import tags_of_note
from .tags import note_tag_badges
from .watchlist import marked_advice, render_followup_box

def _meta_badges(note: Note, site: Site, links: bool) -> str:
    """The verdict (linking to its reading list on the site), the subsystem and the tags, as badges.

    The subsystem's badge is in a span of :data:`prnotes.contract.SUBSYSTEM_BADGE_CLASS`:
    the search indexes its words, a reader's way to the note (the other badges are furniture).
    """
    parts = []
    if note.verdict:
        v = VERDICT_BY_SLUG[note.verdict]
        if links:
            parts.append(f"{{bdg-ref-{v.badge}}}`{v.title} <{contract.verdict_label(v.slug)}>`")
        else:
            parts.append(f"{{bdg-{v.badge}}}`{v.title}`")
    else:
        parts.append(f"{{bdg-light}}`{NO_VERDICT}`")
    sub = site.subsystem(note.subsystem)
    parts.append(f"[{{bdg-ref-info-line}}`{sub.title} <{sub.label}>`]{{.{contract.SUBSYSTEM_BADGE_CLASS}}}")
    parts.extend(note_tag_badges(note, site, links))
    return " ".join(parts)


def _github_link(note: Note) -> list[str]:
    """在 GitHub 上打开 #N: the pull request (the repository for a note without a number), on the site.

    Short enough for one line on a phone; the repository is the field under it, and the link's title."""
    if note.number is not None:
        text, title, url = f"#{note.number}", f"{note.repo}#{note.number}", contract.github_url(note.repo, note.number)
    else:
        text, title, url = note.repo, note.repo, contract.github_repo_url(note.repo)
    link = f'[{escape(f"在 GitHub 上打开 {text}")}](<{url}> "{escape(f"在 GitHub 上打开 {title}")}")'
    return ["```{only} html", f"{link}{{.{contract.GITHUB_LINK_CLASS} .no-search}}", "```", ""]


def digest_date(seed_path: str) -> str:
    """The digest's date, filled in at build time from git (never written here)."""
    return f"{{{contract.DIGEST_DATE_ROLE}}}`{contract.quote_path(seed_path)}`"


def _fields(note: Note, site: Site, links: bool) -> list[str]:
    """The note's fields: on the site the repository, PR, upstream title,
    audiences and digest (the verdict and the subsystem are the badges above);
    in print, as the book has always shown them, the verdict and the subsystem too."""
    tax = site.taxonomy
    repo_url = contract.github_repo_url(note.repo)
    head = [f":{contract.REPO_FIELD}: {external_link(escape(note.repo), repo_url)}"]
    if note.number is not None:
        pr_url = contract.github_url(note.repo, note.number)
        head.append(f":{contract.PR_FIELD}: {external_link(escape(f'#{note.number}'), pr_url)}")
    if note.upstream_title:
        head.append(f":{contract.UPSTREAM_FIELD}: {escape(note.upstream_title)}")
    if note.verdict:
        v = VERDICT_BY_SLUG[note.verdict]
        verdict = [f":{contract.VERDICT_FIELD}: {v.title}（{escape(v.meaning)}）"]
    else:
        verdict = [f":{contract.VERDICT_FIELD}: {NO_VERDICT}"]
    audiences = []
    if note.audiences:
        names = {a.slug: a.title for a in tax.audiences}
        audiences = [f":{contract.AUDIENCE_FIELD}: " + "、".join(escape(names[a]) for a in note.audiences)]
    sub = site.subsystem(note.subsystem)
    subsystem = [f":{contract.SUBSYSTEM_FIELD}: {doc_link(escape(sub.title), note.docname, sub.docname)}"]
    digest = site.digest_by_docname.get(note.digest)
    tail = []
    if digest is not None:
        title = doc_link(digest.title, note.docname, digest.docname) if links else digest.title
        tail = [f":{contract.DIGEST_FIELD}: {title} · {digest_date(digest.path)}"]
    return [
        "```{only} html", *head, *audiences, *tail, "```", "",
        "```{only} latex", *head, *verdict, *audiences, *subsystem, *tail, "```",
    ]  # fmt: skip


def _as_seen_from(ref: Ref, repo: str) -> Ref:
    """The reference as a list item shows it: ``#N`` at home, else ``owner/repo#N``."""
    text = f"#{ref.number}" if contract.same_repo(ref.repo, repo) else ref.target
    return Ref(text, ref.repo, ref.number, ref.kind)


def _related(note: Note, site: Site) -> list[str]:
    out: list[str] = []
    mentions = note.mentions
    if mentions:
        out += ["", "本篇提到：", ""]
        for ref in mentions:
            line = f"- {ref_role(_as_seen_from(ref, note.repo))}"
            target = site.note_for(ref.repo, ref.number) if ref.kind == "pull" else None
            if target is not None:
                line += " " + note_link(target, note.docname)
            elif ref.kind == "issues":
                line += " （issue）"
            out.append(line)
    backlinks, outside = (), ()
    if note.number is not None:
        backlinks = tuple(d for d in site.mentioned_by.get((note.repo, note.number), ()) if d != note.docname)
        outside = site.mentioned_outside.get((note.repo, note.number), ())
    if backlinks or outside:
        notes = site.by_docname
        out += ["", "提到本篇的笔记：", ""]
        for doc in backlinks:
            out.append(f"- {note_link(notes[doc], note.docname)}")
        # Notes this book leaves out: the PR on GitHub, the title, the digest.
        for repo, number, title, digest in outside:
            ref = f"{ref_role(_as_seen_from(Ref(f'#{number}', repo, number), note.repo))} " if number is not None else ""
            out.append(f"- {ref}{inline(title, link_text=True)}（第 {digest} 期）")
    return out


def _facts(note: Note, site: Site) -> list[str]:
    """What the Sphinx side needs to know about the note: the feed, the header
    and every list of notes are built from these (see prnotes.sphinxext.facts.notes)."""
    digest = site.digest_of(note)
    options = {
        "repo": note.repo,
        "number": "" if note.number is None else str(note.number),
        "digest": contract.quote_path(note.path),
        "digest-number": str(digest.number),
        "volume": str(digest.volume),
        "position": str(note.position),
        "verdict": note.verdict or "",
        "subsystem": note.subsystem,
        "audiences": " ".join(note.audiences),
        "tags": " ".join(t.slug for t in tags_of_note(note, site.taxonomy)),
        "symbols": " ".join(f"{s.kind}:{contract.quote_path(s.name)}" for s in note.symbols),
        "mentions": " ".join(f"{r.target}:{r.kind}" for r in note.mentions),
    }
    return [f":::{{{contract.NOTE_DIRECTIVE}}}", *(f":{key}: {value}" for key, value in options.items() if value), ":::", ""]


def page_key(note: Note, site: Site) -> str:
    """A hash of everything :func:`render_note` reads for ``note`` on the site
    (besides the taxonomy and the code, which :mod:`prnotes.write.cache` versions)."""
    digest = site.digest_of(note)
    targets = [site.note_for(r.repo, r.number) for r in note.mentions if r.kind == "pull"]
    backlinks = site.mentioned_by.get((note.repo, note.number), ()) if note.number is not None else ()
    inputs = (
        note,
        (digest.docname, digest.number, digest.volume, digest.path),
        tuple((t.docname, t.title_pieces) for t in targets if t is not None),
        tuple((d, site.by_docname[d].title_pieces) for d in backlinks),
        site.mentioned_outside.get((note.repo, note.number), ()) if note.number is not None else (),
    )
    # pickle, not repr: many times faster. Without its memo ("fast" mode),
    # equal inputs give the same bytes whether or not they share objects (a
    # note analysed in this run, or loaded from the cache, shares different ones).
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True
    pickler.dump(inputs)
    return hashlib.sha1(buffer.getvalue()).hexdigest()


def render_note(note: Note, site: Site, links: bool = True) -> str:
    """MyST text of a note page; ``links=False`` for the PDF book, which has no tag or digest pages."""
    lines = [
        marker(f"{note.path}:{note.line}"),
        "",
        f"({note.label})=",
        f"# {inline(note.title_pieces)}",
        "",
        *_facts(note, site),
        _meta_badges(note, site, links),
        "",
        *(_github_link(note) if links else []),
        *_fields(note, site, links),
        "",
        f"## {contract.ADVICE_SECTION}",
        "",
        marked_advice(note),  # the advice verbatim, its follow-ups marked
        "",
        *render_followup_box(note, links),
    ]
    related = _related(note, site)
    if related:  # no empty section: a note that mentions no PR, and that none mentions, has none
        lines += [f"## {contract.RELATED_SECTION}", *related, ""]
    if links:
        lines += [f"{{{contract.SOURCE_ROLE}}}`{contract.quote_path(note.path)}:{note.line}`", ""]
    return "\n".join(lines)
