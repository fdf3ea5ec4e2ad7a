"""The one recipe for file names, docnames, labels and URLs.

The converter and the Sphinx extension both derive names from here, so a PR
reference can be resolved from its repository and number alone.
"""

from __future__ import annotations

import functools
import hashlib
import re

NOTES_DIR = "notes"
GITHUB = "https://github.com"


@functools.lru_cache(maxsize=1024)
def slug(text: str) -> str:
    """Lower-case ASCII slug of a GitHub owner or repository name."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def repo_dir(repo: str) -> str:
    """``vllm-project/vllm`` -> ``notes/vllm-project/vllm``."""
    owner, name = repo.split("/", 1)
    return f"{NOTES_DIR}/{slug(owner)}/{slug(name)}"


def note_docname(repo: str, number: int | None, title: str) -> str:
    """Docname of a note: stable under reordering and new digests.

    Notes with a PR number are named by it; the rest by a hash of their title.
    """
    if number is not None:
        return f"{repo_dir(repo)}/pr-{number}"
    digest = hashlib.sha1(f"{repo}\n{title}".encode()).hexdigest()[:12]
    return f"{repo_dir(repo)}/t-{digest}"


def note_label(repo: str, number: int | None, title: str) -> str:
    """Cross-reference label of a note, e.g. ``pr-vllm-project-vllm-51368``."""
    owner, name = repo.split("/", 1)
    if number is not None:
        return f"pr-{slug(owner)}-{slug(name)}-{number}"
    return f"note-{slug(owner)}-{slug(name)}-{note_docname(repo, None, title).rsplit('-', 1)[1]}"


def subsystem_docname(slug_: str) -> str:
    return f"{NOTES_DIR}/subsystem/{slug_}"


def github_url(repo: str, number: int, kind: str = "pull") -> str:
    """``kind`` is ``pull`` or ``issues``; GitHub redirects between the two."""
    return f"{GITHUB}/{repo}/{kind}/{number}"


def parse_target(target: str) -> tuple[str, int] | None:
    """``owner/repo#N`` -> ``(owner/repo, N)``; ``None`` if malformed."""
    match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+)#(\d+)", target.strip())
    if not match:
        return None
    return match.group(1), int(match.group(2))


PR_INDEX = f"{NOTES_DIR}/pr-index"

# Reader pages: reading lists, the follow-up watch list, symbols, tags.
READING_DIR = f"{NOTES_DIR}/reading"
READING_INDEX = f"{READING_DIR}/index"
WATCHLIST = f"{NOTES_DIR}/followups"
SYMBOLS = f"{NOTES_DIR}/symbols"
TAGS_DIR = f"{NOTES_DIR}/tags"
TAGS_INDEX = f"{TAGS_DIR}/index"
_NOTE_DOCNAME_RE = re.compile(rf"{NOTES_DIR}/[a-z0-9-]+/[a-z0-9-]+/(?:pr-[0-9]+|t-[0-9a-f]{{12}})")


def verdict_docname(verdict_slug: str) -> str:
    return f"{READING_DIR}/{verdict_slug}"


def audience_docname(audience_slug: str) -> str:
    return f"{READING_DIR}/for-{slug(audience_slug)}"


def tag_docname(tag_slug: str) -> str:
    return f"{TAGS_DIR}/{slug(tag_slug)}"


def tag_label(tag_slug: str) -> str:
    return f"tag-{slug(tag_slug)}"


def is_note_docname(docname: str) -> bool:
    """Whether a docname is a note page (see :func:`note_docname`)."""
    return _NOTE_DOCNAME_RE.fullmatch(docname) is not None
