"""Names as people type them (issue 25): a character, a fighter, a template or a weapon found
by its exact name in any case, by a Russian case form of it (pymorphy3: «Такеды» is
«Такеда», «Ольгу» is «Ольга»), by the unique start of it or of one of its words («Ольга» for
«Ольга Крылова»), or with one letter wrong, missing, extra or two swapped (rapidfuzz's OSA
distance: «Бнадит» is «Бандит»); and when nothing is found, the closest names to offer.

No rule system's names: any table of names may use it. Pure (the dictionaries load once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from engine.words import fold

MIN_TYPO_LENGTH = 4  # a shorter word has too many one-letter neighbours
CLOSEST = 3  # names offered at most
CLOSEST_SCORE = 60  # rapidfuzz WRatio (0-100) a name needs to be offered


@dataclass(frozen=True, slots=True)
class Match:
    """``found``: the one name meant (None: none, or several equally — see ``closest``)."""

    found: str | None
    closest: tuple[str, ...] = ()


@cache
def _morph() -> object:
    import pymorphy3  # type: ignore[import-untyped]  # ships no type hints

    return pymorphy3.MorphAnalyzer()


@cache
def lemmas(word: str) -> frozenset[str]:
    """The word and the dictionary forms it may be a case of («такеды» → {такеда, …})."""
    word = fold(word)
    parses = _morph().parse(word)  # type: ignore[attr-defined]  # pymorphy3: untyped
    return frozenset({word, *(fold(p.normal_form) for p in parses)})


def _same_word(said: str, name: str) -> bool:
    return said == name or bool(lemmas(said) & lemmas(name))


def _same_words(said: list[str], name: list[str]) -> bool:
    """The name's words (or its first ones) in any case; one word: any of the name's."""
    if len(said) == 1 and len(name) > 1:
        return any(_same_word(said[0], n) for n in name)
    return len(said) <= len(name) and all(
        _same_word(s, n) for s, n in zip(said, name[: len(said)], strict=True)
    )


def _starts(said: str, name: str) -> bool:
    return name.startswith(said) or any(w.startswith(said) for w in name.split())


def _typo(said: str, name: str) -> bool:
    if len(said) < MIN_TYPO_LENGTH:
        return False
    if [c for c in said if c.isdigit()] != [c for c in name if c.isdigit()]:
        return False  # «Бандит 3» is not a typo of «Бандит 1»
    head = " ".join(name.split()[: len(said.split())])  # «бнадит» against «бандит» of «бандит 1»
    return OSA.distance(said, name) <= 1 or OSA.distance(said, head) <= 1


def _unique(names: Sequence[str], hits: list[int]) -> str | None:
    found = {names[i] for i in hits}
    return found.pop() if len(found) == 1 else None


def match(said: str, names: Sequence[str]) -> Match:
    """The name ``said`` means among ``names``: the first rule that finds exactly one wins —
    the same letters; the same words in another case; the start of the name or of one of
    its words; one letter off. Otherwise the closest names (several that fit equally first)."""
    key = fold(said)
    if not key:
        return Match(None)
    folded = [fold(n) for n in names]
    rules = (
        lambda n: n == key,
        lambda n: _same_words(key.split(), n.split()),
        lambda n: _starts(key, n),
        lambda n: _typo(key, n),
    )
    for rule in rules:
        hits = [i for i, n in enumerate(folded) if rule(n)]
        found = _unique(names, hits)
        if found is not None:
            return Match(found)
        if len(hits) > 1:  # several fit equally: offer those
            return Match(None, tuple(dict.fromkeys(names[i] for i in hits))[:CLOSEST])
    return Match(None, closest(said, names))


def closest(said: str, names: Sequence[str]) -> tuple[str, ...]:
    """Up to CLOSEST names most like ``said`` (rapidfuzz), best first."""
    found = process.extract(
        fold(said),
        [fold(n) for n in names],
        scorer=fuzz.WRatio,
        limit=CLOSEST,
        score_cutoff=CLOSEST_SCORE,
    )
    return tuple(dict.fromkeys(names[i] for _, _, i in found))
