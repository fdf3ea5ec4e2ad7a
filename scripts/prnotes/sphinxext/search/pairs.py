"""Chinese and English names of one concept, paired where the notes pair them.

The glossary (``glossary.toml``) pairs terms by hand. These pairs are
derived from the notes themselves each time the split index is written, so
that a query ``tokenizer`` finds a note that says only 分词器 when the site's
notes pair the two. A pair needs real evidence, of one of two kinds:

1. **A gloss.** A note writes one name and the other right after it in
   brackets: ``晚交互（late interaction）`` or ``quantization（量化）``. The
   bracket must hold only the other script: one to four English words, or
   two to six CJK characters. The name before it is, for a CJK name, the
   CJK run before the bracket, cut after its last function character
   (:data:`FUNCTION_CHARS`: 的, 在, 把, …), and two to six characters long;
   for an English name, one to three English words that follow CJK text,
   punctuation or the start of the text. One gloss is evidence enough.

2. **Parallel titles.** A note's Chinese title and its upstream English
   title say the same thing. An English word of the upstream titles (letters
   only, three or more, counted with its inflection folded and named as the
   titles write it most, not a stop word; not in a
   ``[tag]`` such as ``[Bugfix]``, not the repository's name, not in the
   note's Chinese title) and a string of two to four CJK characters of the
   Chinese titles are paired when

   - they stand in the titles of one note together in at least
     :data:`MIN_NOTES` notes,
   - at least half of the notes whose upstream title has the word have the
     string in their title, and at least half of those whose title has the
     string have the word in their upstream title,
   - over whole notes (titles and advice) they co-occur well above chance:
     their Dice coefficient (2 x notes with both / (notes with the word +
     notes with the string)) is at least :data:`MIN_DICE`,
   - and neither has a better partner: candidates are taken best first (by
     notes together, then the smaller of the two shares, then Dice, then
     the longer string), and a word, or a string (or one overlapping it),
     already taken is not taken again (competitive linking).

A word or string the glossary already pairs is left to the glossary.
Everything here is a pure function of the notes' text, so every build of
the same notes derives the same pairs.

**The notes' words.** What the search derives from the notes' own words, kept per note in ``env``.

The bilingual pairs (:mod:`.pairs`) are worked out from every note of the
site each time the split index is written, so they need each note's title,
upstream title and advice, the unchanged notes' as well. They are read from
the doctree when a note is read (``doctree-read``: the field list with the
upstream title is there, in both of its ``only`` blocks) and kept in the
environment (:class:`..facts.docdata.DocData`, purged and merged like the
other per-document data), so an incremental build has them all.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from docutils import nodes
from sphinx.application import Sphinx

from ... import contract
from ..facts.docdata import DocData
from ..facts.notes import advice_paragraphs
from .glossary import Glossary, phrase_units
from .language import LANG
from .tokens import _CAMEL, CJK, STOPWORDS, fold, normalize, tokens

CORPUS = DocData("prnotes_search_corpus")


@dataclass(frozen=True)
class NoteText:
    """A note's words, as the pairs read them."""

    repo: str  # owner/repo
    title: str  # the page title (Chinese, often with English words and identifiers)
    upstream: str  # the upstream English title ("" when the note has none)
    advice: str  # the advice's paragraphs


def _field(doctree: nodes.document, label: str) -> str:
    for field in doctree.findall(nodes.field):
        name, body = field.children[:2]
        if name.astext().strip() == label:
            return body.astext().strip()
    return ""


def collect(app: Sphinx, doctree: nodes.document) -> None:
    """On ``doctree-read``: keep a note's title, upstream title and advice."""
    if (app.config.html_search_language or app.config.language) != LANG:
        return
    env = app.env
    if not contract.is_note_docname(env.docname):
        return
    title = next(iter(doctree.findall(nodes.title)), None)
    CORPUS.of(env)[env.docname] = NoteText(
        repo=_field(doctree, contract.REPO_FIELD),
        title=title.astext() if title is not None else "",
        upstream=_field(doctree, contract.UPSTREAM_FIELD),
        advice="\n".join(p.astext() for p in advice_paragraphs(doctree)),
    )


def texts(env) -> dict[str, NoteText]:
    """Every note's words, by docname."""
    return dict(CORPUS.of(env))


def setup_corpus(app: Sphinx) -> None:
    CORPUS.connect(app)
    app.connect("doctree-read", collect)


MIN_NOTES = 3  # notes whose titles hold both, for a pair from parallel titles
MIN_SHARE = 0.5  # of each side's notes, the share that holds the other
MIN_DICE = 0.5  # the Dice coefficient of the two over whole notes
# Characters after which a CJK name before a gloss begins (function words).
FUNCTION_CHARS = frozenset("的了在是和与及或把被对将用为按让给由从即也都就而并向于以其该这那个些")
_CJK_RUN = re.compile(f"[{CJK}]+")
_CJK_END = re.compile(f"[{CJK}]+$")
_CJK_ONLY = re.compile(f"[{CJK}]{{2,6}}")
_ENGLISH = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ \-][A-Za-z][A-Za-z0-9]*){0,3}")
_BRACKET = re.compile(r"\(([^()]*)\)")
_TAG = re.compile(r"\[[^\]]*\]")
_WORD = re.compile(r"(?<![A-Za-z0-9_.\-])[A-Za-z]{3,}(?![A-Za-z0-9_.\-])")
_ASCII_WORD = re.compile(r"[A-Za-z0-9]")


@dataclass(frozen=True, order=True)
class Pair:
    chinese: str
    english: str
    evidence: str  # "gloss" or "titles"


def _cjk_name(before: str) -> str | None:
    """The CJK name that ends ``before`` (the text up to a bracket), or None."""
    match = _CJK_END.search(before)
    if match is None:
        return None
    name = match.group()
    for i in range(len(name) - 1, -1, -1):
        if name[i] in FUNCTION_CHARS:
            name = name[i + 1 :]
            break
    return name if 2 <= len(name) <= 6 else None


def _english_name(before: str) -> str | None:
    """The one to three English words that end ``before``, after CJK text, punctuation or the start."""
    match = re.search(r"([A-Za-z0-9 \-]*)$", before)
    stretch = match.group(1)
    head = before[: len(before) - len(stretch)]
    stretch = stretch.strip(" -")
    if not stretch or (head and _ASCII_WORD.fullmatch(head[-1])):
        return None
    words = stretch.replace("-", " ").split()
    if not 1 <= len(words) <= 3 or not _ENGLISH.fullmatch(stretch) or not any(len(w) >= 2 and w.isalpha() for w in words):
        return None
    return stretch


def glosses(text: str) -> list[tuple[str, str]]:
    """The (Chinese, English) pairs a text glosses in brackets."""
    text = normalize(text)  # full-width brackets become ASCII ones
    found = []
    for match in _BRACKET.finditer(text):
        inside = match.group(1).strip()
        before = text[: match.start()]
        if _ENGLISH.fullmatch(inside) and any(len(w) >= 2 and w.isalpha() for w in inside.replace("-", " ").split()):
            chinese = _cjk_name(before)  # 量化(quantization): nothing between the two
            if chinese:
                found.append((chinese, inside))
        elif _CJK_ONLY.fullmatch(inside):
            english = _english_name(before)
            if english:
                found.append((inside, english))
    return found


def _english_words(text: str) -> dict[str, str]:
    """Plain English words (no identifiers), not stop words: {folded: as written, lower case}."""
    out = {}
    for match in _WORD.finditer(text):
        word = match.group()
        if _CAMEL.search(word):
            continue
        term = fold(word.lower())
        if term not in STOPWORDS and len(term) >= 3:
            out.setdefault(term, word.lower())
    return out


def _cjk_strings(text: str) -> set[str]:
    out = set()
    for run in _CJK_RUN.findall(text):
        for n in (2, 3, 4):
            out.update(run[i : i + n] for i in range(len(run) - n + 1))
    return out


def _glossary_sides(glossary: Glossary | None) -> tuple[set[tuple[str, ...]], set[str]]:
    english: set[tuple[str, ...]] = set()
    chinese: set[str] = set()
    for entry in glossary.entries if glossary else ():
        english.add(tuple(phrase_units(entry.english)))
        for wording in entry.wordings:
            chinese.add(normalize(wording).replace(" ", ""))
    return english, chinese


def derive(notes: Iterable[NoteText], glossary: Glossary | None = None) -> list[Pair]:
    """The pairs the notes give evidence for, sorted (see the module's docstring)."""
    notes = list(notes)
    known_english, known_chinese = _glossary_sides(glossary)

    def known(chinese: str, english: str) -> bool:
        return tuple(phrase_units(english)) in known_english or chinese in known_chinese

    pairs: dict[tuple[str, str], Pair] = {}
    english_taken: set[str] = set()
    chinese_taken: list[str] = []
    for note in notes:
        for chinese, english in glosses(f"{note.title}\n{note.advice}"):
            key = (chinese, english.lower())
            if key not in pairs and not known(chinese, english):
                pairs[key] = Pair(chinese, english.lower(), "gloss")

    # Parallel titles.
    upstream_notes: dict[str, set[int]] = defaultdict(set)
    title_notes: dict[str, set[int]] = defaultdict(set)
    word_notes: dict[str, set[int]] = defaultdict(set)
    string_notes: dict[str, set[int]] = defaultdict(set)
    written: dict[str, Counter[str]] = defaultdict(Counter)  # folded word -> how upstream titles write it
    for i, note in enumerate(notes):
        title = normalize(note.title)
        upstream = _english_words(normalize(_TAG.sub(" ", note.upstream)))
        repo_words = set(tokens(note.repo.rpartition("/")[2]))
        for word in upstream.keys() - _english_words(title).keys() - repo_words:
            upstream_notes[word].add(i)
            written[word][upstream[word]] += 1
        for string in _cjk_strings(title):
            title_notes[string].add(i)
        whole = normalize(f"{note.title}\n{note.upstream}\n{note.advice}")
        for term in tokens(whole):
            word_notes[term].add(i)
        for string in _cjk_strings(normalize(f"{note.title}\n{note.advice}")):
            string_notes[string].add(i)
    candidates = []
    for word, with_word in upstream_notes.items():
        if len(with_word) < MIN_NOTES or (word,) in known_english:
            continue
        for string, with_string in title_notes.items():
            both = len(with_word & with_string)
            if both < MIN_NOTES or string in known_chinese:
                continue
            share = min(both / len(with_word), both / len(with_string))
            if share < MIN_SHARE:
                continue
            a, b = word_notes[word], string_notes[string]
            dice = 2 * len(a & b) / (len(a) + len(b))
            if dice < MIN_DICE:
                continue
            candidates.append((-both, -share, -dice, -len(string), string, word))
    for *_, string, word in sorted(candidates):
        if word in english_taken or any(string in t or t in string for t in chinese_taken):
            continue
        english_taken.add(word)
        chinese_taken.append(string)
        # The name as the titles write it most (shortest first), so that it folds as the index's term does.
        name = min(written[word].items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))[0]
        pairs.setdefault((string, name), Pair(string, name, "titles"))
    return sorted(pairs.values())


def key(phrase: str) -> str | None:
    """The index term under which a phrase's pairs are stored: its first
    English unit (folded), or its first two CJK characters."""
    text = normalize(phrase)
    first = _CJK_RUN.match(text.strip())
    if first:
        return first.group()[:2] if len(first.group()) >= 2 else None
    units = phrase_units(text)
    return units[0] if units else None


def links(pairs: Iterable[Pair]) -> dict[str, list[list]]:
    """``{term: [[phrase, [partners]], …]}``: each side of each pair under its
    key (:func:`key`), with the other side as a partner; sorted."""
    partners: dict[str, set[str]] = defaultdict(set)
    for pair in pairs:
        partners[pair.chinese].add(pair.english)
        partners[pair.english].add(pair.chinese)
    out: dict[str, list[list]] = defaultdict(list)
    for phrase in sorted(partners):
        term = key(phrase)
        if term:
            out[term].append([phrase, sorted(partners[phrase])])
    return dict(out)
