"""Real English words for the folding tests: every ending the folding handles.

``tokens.fold`` (and ``fold.js``'s ``prnotesFold``) takes plain inflection
off a word: ``-ies`` to ``-y``; a final ``s``, except after ``ss us is as``;
``-ing`` and ``-ed`` (not ``-eed``), with a doubled consonant (but ``l s
z``) undone; a final ``e``; words under four letters and stop words stay.
Each group below holds real words that take one of those paths, so a side
that folds one ending differently disagrees on a real word.
"""

from __future__ import annotations

WORDS_BY_ENDING: dict[str, tuple[str, ...]] = {
    "ies": ("policies", "queries", "entries", "replies", "retries", "dependencies", "proxies", "libraries", "copies", "ties", "dies", "lies"),
    "ss": ("class", "process", "access", "address", "loss", "pass", "bypass", "progress", "stress", "less", "chess", "boss"),
    "us": ("status", "bus", "virus", "corpus", "focus", "bonus", "campus", "consensus", "radius", "nexus", "plus", "thus"),
    "is": ("analysis", "basis", "axis", "thesis", "chassis", "emphasis", "redis", "this", "tennis", "crisis", "genesis", "his"),
    "as": ("alias", "canvas", "atlas", "bias", "gas", "atlas", "pandas", "has", "was", "ideas", "areas", "extras"),
    "s": ("caches", "races", "tokens", "kernels", "tests", "layers", "experts", "weights", "shards", "jobs", "bugs", "seeds"),
    "ing": ("running", "caching", "installing", "buzzing", "fizzing", "passing", "sharding", "racing", "hashing", "loading", "sing", "ring", "thing", "king", "string", "scheduling", "bring"),
    "ed": ("cached", "stopped", "planned", "installed", "embedded", "needed", "shipped", "fused", "sharded", "raced", "fixed", "red", "bed", "used", "based"),
    "eed": ("speed", "agreed", "freed", "seed", "need", "proceed", "exceed", "succeed", "feed", "greed"),
    "e": ("cache", "race", "decode", "store", "size", "code", "pipeline", "module", "tree", "free", "see", "the"),
    "short": ("a", "an", "is", "as", "us", "ties", "pie", "bus", "gas", "red", "sing", "eed"),
    "stop": ("does", "was", "has", "these", "those", "being", "having", "doing", "there", "where", "which", "their"),
}

WORDS: tuple[str, ...] = tuple(sorted({w for group in WORDS_BY_ENDING.values() for w in group}))
