"""Derive a note's verdict, audiences, subsystem and tags from its text.

Verdict: the first of the advice's first three sentences that holds a
verdict phrase decides (a phrase asked about, ``值得精读吗？``, is none); in it,
every verdict phrase is found, and the earliest one decides. A sentence ends
at 。！？!? or a line end, and at ``;`` or an English full stop (as in the
reading lists' summaries). Code spans never count.

- 精读: 必读, 强烈推荐, 推荐精读, 值得精读, 值得细读, 仔细阅读, 值得一读,
  通读, 深入研究, 重点阅读, 深究 …; in English, must-read, worth a close
  read, read carefully, highly recommended;
- 速读: 值得快速浏览, 快速阅读, 略读即可, 扫一眼即可, 浏览即可, 了解即可,
  粗看, 速览, 跳读 …; skim, a quick look, glance;
- 按需: 按需阅读, 选读, 可选阅读, 可跳过, 可略过; optional, skip, you can
  skip, if you work on …; a condition at the start of a clause that leads to a
  recommendation (``若/如果 … 值得 …``, ``对 X 来说 …``); ``只有 … 需要关心``;
  a recommendation to an audience (``建议 X 阅读``, ``适合 X 的同学细读``,
  ``做 X 的读者可以看一看``); ``… 时再读``.

English phrases count in Chinese sentences too (``Worth a close read：…``),
but a bare ``Optional``/``Skip`` opens a verdict only in English advice or
before a colon. A phrase after a negation (不必精读, 不需要深度精读, 而不是精读,
非必读, 不建议精读, 不太值得精读, 谈不上必读; not, no need to, don't …) or
before one (精读价值不大, 精读的必要不大) is not that verdict. When the
sentence holds nothing but negated 精读 phrases, the verdict is 速读: "no need
to read closely". Without any phrase the verdict is ``None`` and the
conversion warns.

Subsystem: see :mod:`prnotes.model.filing`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..parse.sentences import ASCII_END, ENGLISH_PERIOD
from .taxonomy import Taxonomy


@dataclass(frozen=True)
class Verdict:
    slug: str
    title: str
    badge: str  # sphinx-design badge colour
    meaning: str


VERDICTS = (
    Verdict("close", "精读", "danger", "值得逐段精读：设计决策、实现细节都值得看。"),
    Verdict("skim", "速读", "primary", "值得快速浏览：了解做了什么、记住要点即可。"),
    Verdict("optional", "按需", "secondary", "与你的方向相关时再读：笔记会说明适合谁。"),
)
VERDICT_BY_SLUG = {v.slug: v for v in VERDICTS}
# What a list calls a note whose advice names no verdict.
NO_VERDICT = "未注明"


def verdict_rank(verdict: str | None) -> int:
    """Where a verdict stands in reading order: 精读 0, 速读 1, 按需 2, none last."""
    return next((i for i, v in enumerate(VERDICTS) if v.slug == verdict), len(VERDICTS))


def verdict_counts(verdicts: Iterable[str | None]) -> str:
    """``精读 3 篇，速读 2 篇，未注明 1 篇``: verdicts in their fixed order, zero counts left out.

    A note whose advice states no verdict (``None`` or ``""``) counts as 未注明, so the counts add up.
    """
    counts = [0] * (len(VERDICTS) + 1)
    for verdict in verdicts:
        counts[verdict_rank(verdict or None)] += 1
    titles = [v.title for v in VERDICTS] + [NO_VERDICT]
    return "，".join(f"{title} {count} 篇" for title, count in zip(titles, counts) if count)

_CLOSE = (
    # 通读, but not across words: 普通读者 (ordinary readers), 交通读数.
    r"必读|强烈推荐|精读|细读|细看|深读|研读|(?<![普交])通读(?![者数])"
    r"|(?:仔细|认真|逐行|逐段|深入|反复)(?:阅读|读|看|研究|琢磨)|值得一读|值得阅读|推荐阅读"
    r"|重点(?:阅读|研读)|深究|细究"
)
_SKIM = (
    r"(?:快速|简单|粗略|大致|大概)(?:浏览|阅读|看看|过一遍|了解)|略读|粗读|速读|泛读|扫一眼|扫一遍|瞄一眼"
    r"|看一眼|过一眼|浏览(?:即可|一下|一遍)|(?:了解|知道|知悉)[^。，；：]{0,50}?即可|有个印象|看个大概|值得一看|速览|跳读|扫读"
    r"|粗看|略看|大致看|简单看|瞄一下|扫一下"
)
_AUDIENCE = r"者|人|同学|开发|团队|用户|读者|工程师|负责|维护|owner|maintainer|方向|领域"
_READ = r"阅读|一读|看看|细读|精读|研读|浏览|关注|参考|读"
_OPTIONAL = (
    r"按需|视需要|酌情|选读|可选阅读|可读可不读|(?:可以?|建议|直接)(?:跳过|略过)|(?:跳过|略过)即可|^\s*(?:跳过|略过)|(?:时|的话)再(?:读|看|细看|阅读|查阅)"
    r"|(?:只有|仅当|只在|仅在|只对|仅对|只需在)[^。；]{0,40}?才?(?:需要|值得|有必要|建议)"
    rf"|(?:建议|推荐|适合)[^。，；：]{{0,30}}?(?:{_AUDIENCE})[^。；：]{{0,12}}?(?:{_READ})"
    rf"|(?:读者|同学|开发者|用户|团队|工程师|维护者|负责人)(?:可以|值得|不妨|建议|应该|需要)[^。，；：]{{0,6}}?(?:{_READ}|看)"
)
PHRASES = (("close", re.compile(_CLOSE)), ("skim", re.compile(_SKIM)), ("optional", re.compile(_OPTIONAL)))
# English phrases and negations; they count in any sentence.
_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_SENTENCE_RE = re.compile(rf"[。！？;\n]|{ASCII_END}|{ENGLISH_PERIOD}")
_EN_CLOSE = re.compile(
    r"\bmust[- ]read\b|\bclose read|\bread (?:it |this |this one |this PR )?(?:closely|carefully|in full)\b"
    r"|\bworth (?:a )?(?:careful |close |closer |deep |detailed |thorough |full )?(?:read(?:ing)?|look)\b"
    r"|\bhighly recommended\b|\brecommended read(?:ing)?\b|\bin[- ]depth read",
    re.I,
)
_EN_SKIM = re.compile(r"\bskim(?:s|med|ming)?\b|\bquick (?:look|read|scan)\b|\bglanc(?:e|ing)\b", re.I)
_EN_OPTIONAL = (
    r"\b(?:is|it's|reading is) optional\b|\bif you (?:work on|maintain|care about|use)\b"
    r"|\b(?:you can|safe to|feel free to) skip\b"
)


def _en_phrases(leading_optional: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return (("close", _EN_CLOSE), ("skim", _EN_SKIM), ("optional", re.compile(rf"{leading_optional}|{_EN_OPTIONAL}", re.I)))


EN_PHRASES = _en_phrases(r"^\s*(?:optional|skip)\b(?![-_\[])")
# In a Chinese sentence a leading ``Optional``/``Skip`` may be a name (``Optional 类型``).
_EN_PHRASES_AMID_CHINESE = _en_phrases(r"^\s*(?:optional|skip)\s*[:：]")
_EN_NEGATION_RE = re.compile(r"\b(?:not|no need to|don't|do not|never|without|nothing to)(?: just| a| an| to| the)?\s*$", re.I)
# Code spans say nothing about the verdict (`Optional[Tensor]`, `--skip-warmup`).
_CODE_SPAN_RE = re.compile(r"`[^`\n]*`")
# A condition that opens a clause, and what must follow it for a verdict.
_CONDITION_RE = re.compile(r"(?:^|(?<=[，,；;：:]))\s*(?:若|如果|假如|倘若|要是|如若|假使|如你|如您|当你|对于?[^，。；：]{1,30}?(?:来说|而言))")
_RECOMMEND_RE = re.compile(r"值得|建议|推荐|可以|不妨|必读|再读|再看|一读|阅读|精读|细读|浏览|参考")
# A negation, then what it negates: 不必, 不值得, 不太推荐, 谈不上值得, 别 …
_NEGATION_RE = re.compile(
    r"(?:不必|无需|无须|不需|没有?必要|没什么必要|没有|用不着|犯不着|不用|而不是|而非|并非|不是|不宜|不要|别|非"
    r"|不算|算不上|谈不上|称不上|未必|不(?:太|大|怎么|很)?)"
    r"(?:值得|建议|推荐|需要)?"
    r"(?:深度|深入|太|特别|完整|逐行|逐字|过多|去|再|专门)?$"
)


# ... or what follows a phrase and takes it back: 精读价值不大, 精读的必要不大.
_NEGATED_AFTER_RE = re.compile(r"(?:的)?(?:价值|必要性?|意义|收益|需要)(?:并|也)?(?:不大|不高|有限|不多|较小|一般|不强)|(?:就)?(?:不必|没必要)了")


# A phrase asked about rather than stated.
_ASKED_RE = re.compile(r"\s*(?:吗|么|嘛|[？?])")


def _negated(sentence: str, start: int, end: int, negation: re.Pattern[str]) -> bool:
    return (
        negation.search(sentence, max(0, start - 12), start) is not None
        or _NEGATED_AFTER_RE.match(sentence, end) is not None
    )


def verdict_of(body: str) -> str | None:
    """Verdict slug of an advice text, by the rules in the module docstring."""
    text = _CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), body.lstrip())
    start = 0
    for _ in range(3):
        end_mark = _SENTENCE_RE.search(text, start)
        end = end_mark.start() if end_mark else len(text)
        verdict = verdict_of_sentence(text[start : end + 1 if end_mark else end])
        if verdict is not None:
            return verdict
        if end >= len(text):
            return None
        start = end + 1
    return None


# (verdict, phrase, the negation that takes it back) for a sentence with Chinese, and one without.
_CHINESE_RULES = tuple((slug, p, _NEGATION_RE) for slug, p in PHRASES) + tuple(
    (slug, p, _EN_NEGATION_RE) for slug, p in _EN_PHRASES_AMID_CHINESE
)
_ENGLISH_RULES = tuple((slug, p, _EN_NEGATION_RE) for slug, p in EN_PHRASES)


def _rules(sentence: str):
    return _CHINESE_RULES if _CJK_RE.search(sentence) else _ENGLISH_RULES


def verdict_of_sentence(sentence: str) -> str | None:
    """The verdict one sentence states, or ``None``."""
    rules = _rules(sentence)
    return _verdict_of_sentence(sentence, rules, conditions=rules is _CHINESE_RULES)


def verdict_phrases(sentence: str) -> list[tuple[int, int]]:
    """Spans of every verdict phrase in a sentence, negated or not."""
    return [m.span() for _, p, _ in _rules(sentence) for m in p.finditer(sentence) if m.end() > m.start()]


def _verdict_of_sentence(sentence: str, rules, conditions: bool) -> str | None:
    found: list[tuple[int, int, str]] = []  # (start, -length, slug): earliest, then longest
    negated_close = False
    for slug, pattern, negation in rules:
        for m in pattern.finditer(sentence):
            if _ASKED_RE.match(sentence, m.end()):
                continue  # asked, not stated: 值得精读吗？
            if _negated(sentence, m.start(), m.end(), negation):
                negated_close |= slug == "close"
            else:
                found.append((m.start(), m.start() - m.end(), slug))
    if conditions:
        # A condition counts when a recommendation follows it. The one found
        # after an earlier condition still follows a later one that ends
        # before it, so the text is searched once, not once per condition.
        recommendation = None
        for m in _CONDITION_RE.finditer(sentence):
            if recommendation is None or recommendation.start() < m.end():
                recommendation = _RECOMMEND_RE.search(sentence, m.end())
                if recommendation is None:
                    break  # none after this condition, so none after the later ones
            found.append((m.start(), m.start() - m.end(), "optional"))
    if found:
        return min(found)[2]
    return "skim" if negated_close else None


def audiences_of(body: str, taxonomy: Taxonomy) -> tuple[str, ...]:
    """Slugs of every audience the body names, in taxonomy order."""
    return tuple(a.slug for a in taxonomy.audiences if a.matches(body))


def tags_of(title: str, upstream_title: str, body: str, subsystem: str, taxonomy: Taxonomy) -> tuple[str, ...]:
    """``[[tag]]`` slugs in taxonomy order: hardware, models, topics.

    The tag named like the note's own subsystem is left out (it would repeat
    the subsystem badge).
    """
    text = f"{title}\n{upstream_title}\n{body}"
    lower = text.lower()
    return tuple(t.slug for t in taxonomy.tags if t.slug != subsystem and t.matches(text, lower))
