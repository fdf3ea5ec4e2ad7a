"""The page contract: what the converter writes and the Sphinx side reads.

The converter (renderers and writer) and the Sphinx extension (summaries,
search, feed, audit) agree on these and on nothing else: the generated-page
marker, the section titles and field names of a note page, and the one recipe
for file names, docnames, labels and URLs. Every module reads them from here
at the time of use (``contract.ADVICE_SECTION``, not a copy), so renaming a
section here renames it everywhere; ``tests/test_contract.py`` does that.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import Counter
import urllib.parse

# The first line of every generated page starts with this; only such pages are
# ever replaced or removed.
MARKER = "% prnotes: generated"

# Section titles of a note page.
ADVICE_SECTION = "阅读建议"  # the advice, verbatim: summaries and the audit read it
FOLLOWUPS_SECTION = "待跟进"  # the note's follow-up box
RELATED_SECTION = "相关"  # mentions and back-links: left out of the search index

# Field names of a note page's metadata. On the site the verdict and the
# subsystem are badges; the book prints them as fields too.
REPO_FIELD = "仓库"
PR_FIELD = "PR"
UPSTREAM_FIELD = "上游标题"
VERDICT_FIELD = "阅读结论"
AUDIENCE_FIELD = "适合读者"
SUBSYSTEM_FIELD = "子系统"
DIGEST_FIELD = "收录于"
# The span around a note's subsystem badge (the search keeps its words), and
# the class of its 在 GitHub 上打开 link.
SUBSYSTEM_BADGE_CLASS = "prnotes-subsystem"
GITHUB_LINK_CLASS = "prnotes-github"


# Roles and directives the converter writes and the extension defines.
DIGEST_DATE_ROLE = "prnotes-digest-date"  # a digest's date, from git at build time
SOURCE_ROLE = "prnotes-source"  # the 编辑来源 link of a note
NOTE_DIRECTIVE = "prnotes-note"  # a note's facts: digest, volume, verdict, subsystem, tags, symbols, mentions
LIST_DIRECTIVE = "prnotes-list"  # a list of notes, filled from the notes' facts when the page is written
ORPHAN_DIRECTIVE = "prnotes-orphan"  # a page reached by links, not from a toctree
REDIRECTS_DIRECTIVE = "prnotes-redirects"  # old addresses of a list's pages, each to the page that holds its entries now
SINCE_DIRECTIVE = "prnotes-since"  # the landing page's "new since your last visit", filled in the browser
PDF_ROLE = "prnotes-pdf"  # links to the PDF books that are there, filled when the page is written

# The follow-ups of a note page: each clause is marked where the advice says it
# (a span with this class and an anchor), and the 待跟进 box lists their labels;
# the watch list reads the box and links to the anchors.
FOLLOWUPS_BOX_CLASS = "prnotes-followups"
FOLLOWUP_CLASS = "prnotes-followup"
FOLLOWUP_LABEL_CLASS = "prnotes-followup-label"
FOLLOWUP_TARGET_CLASS = "prnotes-followup-target"  # the PR or issue beside a label
FOLLOWUP_NO_TARGET = "未指明 PR 或 issue"  # what a follow-up that names none says


def followup_anchor(index: int) -> str:
    """Anchor of a note's ``index``-th follow-up (1-based) on its page."""
    return f"followup-{index}"


def title_fields() -> frozenset[str]:
    """Fields whose words the search ranks like words of the page title."""
    return frozenset({PR_FIELD, UPSTREAM_FIELD})


NOTES_DIR = "notes"
GITHUB = "https://github.com"


@functools.lru_cache(maxsize=1024)
def slug(text: str) -> str:
    """Lower-case ASCII slug of a GitHub owner or repository name."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def repo_key(repo: str) -> str:
    """``vllm-project/VLLM`` -> ``vllm-project/vllm``: all that names a repository's pages.

    Its folder, note labels, PR-index part, feed and subsystem keys are made
    from this alone, so two names of one key would share them: the model
    takes names that differ only in case as one repository (GitHub does) and
    refuses two that differ otherwise (``a/b_c``, ``a/b.c``).
    """
    owner, name = repo.split("/", 1)
    return f"{slug(owner)}/{slug(name)}"


def same_repo(a: str, b: str) -> bool:
    """Whether two names are one repository: GitHub reads them case-insensitively."""
    return a.lower() == b.lower()


def repo_dir(repo: str) -> str:
    """``vllm-project/vllm`` -> ``notes/vllm-project/vllm``."""
    return f"{NOTES_DIR}/{repo_key(repo)}"


# A note without a PR number is named by the first 12 hex digits (48 bits) of a
# hash of its repository and title; a later note whose name an earlier one has
# takes more digits (NotePages), up to the whole hash.
NOTE_HASH_DIGITS = 12
NOTE_HASH_DIGITS_MAX = 40


def note_docname(repo: str, number: int | None, title: str, digits: int = NOTE_HASH_DIGITS) -> str:
    """Docname of a note: stable under reordering and new digests.

    Notes with a PR number are named by it; the rest by a hash of their title,
    cut to ``digits`` hex digits (:class:`NotePages` says how many).
    """
    if number is not None:
        return f"{repo_dir(repo)}/pr-{number}"
    digest = hashlib.sha1(f"{repo}\n{title}".encode()).hexdigest()[:digits]
    return f"{repo_dir(repo)}/t-{digest}"


class NotePages:
    """Page names for the notes of an archive, given in arrival order (seed file
    name order, then position in the file), no two alike.

    Two titles whose hashes share their first 48 bits are cheap to find; the
    later of two such notes takes four more digits, and so on, so a note's
    page name never changes when a digest is added after it. The conversion
    (:func:`prnotes.model.site.build_site`) and the audit name notes with it.
    """

    def __init__(self) -> None:
        self.taken: dict[str, object] = {}

    def name(self, repo: str, number: int | None, title: str, owner: object = None) -> tuple[str, int]:
        """The docname of the next note, and its hash digits; ``owner`` is kept as who took the name."""
        digits = NOTE_HASH_DIGITS
        docname = note_docname(repo, number, title, digits)
        while number is None and docname in self.taken and digits < NOTE_HASH_DIGITS_MAX:
            digits = min(digits + 4, NOTE_HASH_DIGITS_MAX)
            docname = note_docname(repo, number, title, digits)
        self.taken.setdefault(docname, owner)
        return docname, digits

    def owner(self, docname: str) -> object:
        """Who took ``docname`` first (None if no one did)."""
        return self.taken.get(docname)


def note_key(repo: str, number: int | None, docname: str) -> str:
    """How a note is named to the reader's browser (read marks) and to user
    styles and tests (``data-pr``): ``owner/repo#N``; a note without a PR
    number is ``owner/repo#t-<12 hex>`` (or more digits: :class:`NotePages`), after its page."""
    return f"{repo}#{number}" if number is not None else f"{repo}#{docname.rsplit('/', 1)[-1]}"


def _label_repo(repo: str) -> str:
    """The repository part of a label: ``vllm-project-vllm``, ``a--b-c``.

    Owner and name are joined by one hyphen when the name's slug has none,
    else by two. A slug never holds two hyphens in a row, so either way the
    join can be split again: ``a/b-c`` gives ``a--b-c`` and ``a-b/c`` gives
    ``a-b-c``. Labels are therefore as distinct as the note folders (which
    the model checks), and the labels of names without punctuation stay as
    they always were.
    """
    owner, name = repo.split("/", 1)
    name_slug = slug(name)
    return f"{slug(owner)}{'--' if '-' in name_slug else '-'}{name_slug}"


def note_label(repo: str, number: int | None, title: str, digits: int = NOTE_HASH_DIGITS) -> str:
    """Cross-reference label of a note, e.g. ``pr-vllm-project-vllm-51368``.

    Distinct notes get distinct labels (see :func:`_label_repo`), as their pages are.
    """
    if number is not None:
        return f"pr-{_label_repo(repo)}-{number}"
    return f"note-{_label_repo(repo)}-{note_docname(repo, None, title, digits).rsplit('-', 1)[1]}"


DIGESTS_DIR = f"{NOTES_DIR}/digests"
DIGESTS_INDEX = f"{DIGESTS_DIR}/index"
_CLEAN_STEM_RE = re.compile(r"[a-z0-9][a-z0-9_-]*")


def digest_docname(seed_path: str) -> str:
    """Docname of a digest page, from its seed file's name.

    ``seeds/000_50c46ef36472ac24.txt`` -> ``notes/digests/000_50c46ef36472ac24``.
    A name that is not already lower-case ASCII (spaces, colons, capitals,
    other scripts) is slugged and given a hash of the whole name, so two
    names never share a page.
    """
    stem = seed_path.rsplit("/", 1)[-1].removesuffix(".txt")
    if _CLEAN_STEM_RE.fullmatch(stem) and stem != "index":
        return f"{DIGESTS_DIR}/{stem}"
    digest = hashlib.sha1(stem.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{DIGESTS_DIR}/{slug(stem)}-{digest}"


def is_digest_docname(docname: str) -> bool:
    """A digest's page, not the archive (``notes/digests/index``) or one of its pages (``index/p<k>``)."""
    head, _, stem = docname.rpartition("/")
    return head == DIGESTS_DIR and stem != "index"


def digest_label(seed_path: str) -> str:
    return "digest-" + digest_docname(seed_path).rsplit("/", 1)[1]


def subsystem_key(repo: str, slug_: str, flat: bool = False) -> str:
    """The site-wide name of a repository's subsystem: its page's path under ``notes/subsystem/``.

    Each repository has its own subsystems, so ``quantization`` of
    ``sgl-project/sglang`` is ``sgl-project/sglang/quantization``. The one set
    with flat pages (vLLM's, whose pages were there before sets were per
    repository) keeps ``<slug>``: a slug never holds ``/``, so the two never meet.
    """
    if flat:
        return slug_
    owner, name = repo.split("/", 1)
    return f"{slug(owner)}/{slug(name)}/{slug_}"


def is_subsystem_key(text: str) -> bool:
    """Whether a path under ``notes/subsystem/`` is a subsystem's page (a key:
    no ``/``, or two), not one of its later parts (``<key>/v<k>``)."""
    return text.count("/") in (0, 2)


def subsystem_labels(titles: dict[str, str]) -> dict[str, str]:
    """Subsystem key -> how a choice among them names it: its title, and its
    repository beside a title that two repositories share (``量化（sgl-project/sglang）``)."""
    seen = Counter(titles.values())
    return {key: f"{title}（{key.rsplit('/', 1)[0]}）" if seen[title] > 1 and "/" in key else title for key, title in titles.items()}


def repository_order(counts: dict[str, int]) -> list[str]:
    """Repositories as every list of them goes: most notes first, ties by name
    (case-insensitively, as GitHub reads names). ``counts``: notes per repository."""
    return sorted(counts, key=lambda repo: (-counts[repo], repo.lower(), repo))


def qualified_titles(subsystems: dict[str, tuple[str, str]]) -> dict[str, str]:
    """Subsystem key -> its title where it names the subsystem on its own (its
    page's title, the navigation, a feed, a chapter of the book): the title, and
    its repository beside a title that two repositories share
    (``量化（vllm-project/vllm）``). ``subsystems``: key -> (repository, title)."""
    repos: dict[str, set[str]] = {}
    for repo, title in subsystems.values():
        repos.setdefault(title, set()).add(repo.lower())
    return {key: f"{title}（{repo}）" if len(repos[title]) > 1 else title for key, (repo, title) in subsystems.items()}


def subsystem_slug(key: str) -> str:
    """The slug within its set of a subsystem named by :func:`subsystem_key`."""
    return key.rsplit("/", 1)[-1]


def subsystem_label(key: str) -> str:
    """``subsystem-<slug>`` for a flat key; a slug has no ``--``, so the
    repository's parts, joined by ``--``, never make another key's label."""
    return f"subsystem-{key.replace('/', '--')}"


def quote_path(path: str) -> str:
    """A seed path as role content and directive options carry it: ASCII, no markup."""
    return urllib.parse.quote(path, safe="/._-")


def unquote_path(text: str) -> str:
    return urllib.parse.unquote(text.strip())


def github_repo_url(repo: str) -> str:
    return f"{GITHUB}/{repo}"


# The landing page's toctree of the subsystem pages has this caption; on an
# archive of several repositories there is one per repository, captioned
# "子系统：<owner>/<repo>", and the navigation groups by it.
SUBSYSTEMS_CAPTION = "子系统"
_CAPTION_SEPARATOR = "："


def subsystems_caption(repo: str = "") -> str:
    return f"{SUBSYSTEMS_CAPTION}{_CAPTION_SEPARATOR}{repo}" if repo else SUBSYSTEMS_CAPTION


def caption_repository(caption: str) -> str:
    """The repository a subsystem toctree's caption names ('' for the one toctree of a one-repository archive)."""
    return caption.removeprefix(f"{SUBSYSTEMS_CAPTION}{_CAPTION_SEPARATOR}") if caption != SUBSYSTEMS_CAPTION else ""


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
# The PDF book's root page (conf.py's latex_documents): a chapter per subsystem.
BOOK_ROOT = f"{NOTES_DIR}/book"

# Reader pages: reading lists, the follow-up watch list, symbols, tags.
READING_DIR = f"{NOTES_DIR}/reading"
READING_INDEX = f"{READING_DIR}/index"
WATCHLIST = f"{NOTES_DIR}/followups"
SYMBOLS = f"{NOTES_DIR}/symbols"
TAGS_DIR = f"{NOTES_DIR}/tags"
TAGS_INDEX = f"{TAGS_DIR}/index"
# Also the search script's (JavaScript) test for note pages: keep it to the
# syntax both languages share.
NOTE_DOCNAME_PATTERN = rf"{NOTES_DIR}/[a-z0-9-]+/[a-z0-9-]+/(?:pr-[0-9]+|t-[0-9a-f]{{12,40}})"
_NOTE_DOCNAME_RE = re.compile(NOTE_DOCNAME_PATTERN)


def watchlist_docname(subsystem_slug: str) -> str:
    return f"{WATCHLIST}/{subsystem_slug}"


def watchlist_label(subsystem_key_: str) -> str:
    """A subsystem's section of the watch list, while it is one page (``/`` as in :func:`subsystem_label`)."""
    return f"followups-{subsystem_key_.replace('/', '--')}"


def symbols_docname(kind: str, initial: str) -> str:
    return f"{SYMBOLS}/{kind}-{initial}"


def pr_range_docname(repo: str, start: int) -> str:
    """A page of the PR index's earlier numbering by ranges of numbers: a redirect now."""
    return f"{pr_list_docname(repo)}-{start}"


def pr_list_docname(repo: str) -> str:
    """A repository's part of the PR index (its newest numbers; earlier pages below it)."""
    owner, name = repo.split("/", 1)
    return f"{PR_INDEX}/{slug(owner)}--{slug(name)}"


# The notes new since the reader's last visit and still unread (filled in the browser).
UNREAD = f"{NOTES_DIR}/unread"
# 本周 and the weeks before it: ``notes/week/index``, ``notes/week/before-<k>``.
WEEK_DIR = f"{NOTES_DIR}/week"
WEEK_INDEX = f"{WEEK_DIR}/index"
WEEKS_BACK = 8  # the weeks before 本周 that have pages (older digests: the archive)


def week_docname(back: int) -> str:
    """The page of the week ``back`` weeks before 本周 (0: 本周 itself)."""
    return WEEK_INDEX if back == 0 else f"{WEEK_DIR}/before-{back}"


def week_title(back: int) -> str:
    return {0: "本周", 1: "上周"}.get(back, f"{back} 周前")


# Atom feeds, under the HTML output (sphinxext/site/feeds.py), and the page that lists them.
FEED = "feed.xml"
FEEDS_DIR = "feeds"
FEEDS_PAGE = f"{NOTES_DIR}/feeds"


def subsystem_feed(subsystem_slug: str) -> str:
    return f"{FEEDS_DIR}/subsystem/{subsystem_slug}.xml"


def repo_feed(repo: str) -> str:
    owner, name = repo.split("/", 1)
    return f"{FEEDS_DIR}/repo/{slug(owner)}--{slug(name)}.xml"


def verdict_feed(verdict_slug: str) -> str:
    return f"{FEEDS_DIR}/verdict/{verdict_slug}.xml"


def verdict_docname(verdict_slug: str) -> str:
    return f"{READING_DIR}/{verdict_slug}"


def verdict_label(verdict_slug: str) -> str:
    """The label of a verdict's reading list, which a note's verdict badge links to."""
    return f"reading-{verdict_slug}"


def audience_docname(audience_slug: str) -> str:
    return f"{READING_DIR}/for-{slug(audience_slug)}"


def tag_docname(tag_slug: str) -> str:
    return f"{TAGS_DIR}/{slug(tag_slug)}"


def tag_label(tag_slug: str) -> str:
    return f"tag-{slug(tag_slug)}"


def is_note_docname(docname: str) -> bool:
    """Whether a docname is a note page (see :func:`note_docname`)."""
    return _NOTE_DOCNAME_RE.fullmatch(docname) is not None
