"""Russian (and English) words of the combat and chase commands -> engine values.

Everything here is pure: the routers call these with the words left after the names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.savage.traits import ATTRIBUTE_NAMES, SKILL_NAMES
from engine.words import fold as norm

_SIGNED = re.compile(r"^[+\-−–]\d{1,2}$")
_NUMBER = re.compile(r"^\d{1,3}$")
_DICE = re.compile(r"(?i)^(?:\d*[dдк]\d+|str|сил[аы]?)(?:[+\-][0-9a-zа-я]+)*!?$")
_AP = ("бп", "ap", "пб")

SKILLS_BY_WORD = {
    "драка": "fighting",
    "рукопашная": "fighting",
    "ближний": "fighting",
    "fighting": "fighting",
    "melee": "fighting",
    "стрельба": "shooting",
    "shooting": "shooting",
    "атлетика": "athletics",
    "метание": "athletics",
    "бросок": "athletics",
    "athletics": "athletics",
    "throw": "athletics",
}
RANGE_WORDS = {
    "близко": "short",
    "ближняя": "short",
    "short": "short",
    "средняя": "medium",
    "средне": "medium",
    "medium": "medium",
    "дальняя": "long",
    "далеко": "long",
    "long": "long",
    "предельная": "extreme",
    "extreme": "extreme",
}
COVER_WORDS = {
    "лёгкое": "light",
    "легкое": "light",
    "light": "light",
    "среднее": "medium",
    "medium": "medium",
    "тяжёлое": "heavy",
    "тяжелое": "heavy",
    "heavy": "heavy",
    "полное": "near_total",
    "почти": "near_total",
    "full": "near_total",
}
LIGHT_WORDS = {
    "сумрак": "dim",
    "тусклый": "dim",
    "dim": "dim",
    "темнота": "dark",
    "темно": "dark",
    "dark": "dark",
    "тьма": "pitch",
    "кромешная": "pitch",
    "pitch": "pitch",
}
CALLED_WORDS = {
    "конечность": "limb",
    "рука": "limb",
    "нога": "limb",
    "limb": "limb",
    "кисть": "hand",
    "hand": "hand",
    "голова": "head",
    "голову": "head",
    "head": "head",
    "жизненно": "vitals",
    "уязвимое": "vitals",
    "vitals": "vitals",
}
CONDITION_WORDS = {
    "шок": "shaken",
    "shaken": "shaken",
    "оглушён": "stunned",
    "оглушен": "stunned",
    "оглушение": "stunned",
    "stunned": "stunned",
    "отвлечён": "distracted",
    "отвлечен": "distracted",
    "отвлечь": "distracted",
    "distracted": "distracted",
    "уязвим": "vulnerable",
    "уязвимый": "vulnerable",
    "уязвимость": "vulnerable",
    "vulnerable": "vulnerable",
    "опутан": "entangled",
    "entangled": "entangled",
    "связан": "bound",
    "bound": "bound",
    "лежит": "prone",
    "лёжа": "prone",
    "лежа": "prone",
    "prone": "prone",
    "защита": "defend",
    "defend": "defend",
}
DURATION_WORDS = {
    "до конца хода": "end_of_next_turn",
    "конец": "end_of_next_turn",
    "до начала хода": "start_of_next_turn",
    "начало": "start_of_next_turn",
}
STATUS_WORDS = {
    "раны": "wounds",
    "рана": "wounds",
    "wounds": "wounds",
    "усталость": "fatigue",
    "fatigue": "fatigue",
    "шок": "shaken",
    "shaken": "shaken",
    "оглушён": "stunned",
    "оглушен": "stunned",
    "stunned": "stunned",
    "недееспособен": "incapacitated",
    "incapacitated": "incapacitated",
    "кровотечение": "bleeding_out",
    "bleeding": "bleeding_out",
    "мёртв": "dead",
    "мертв": "dead",
    "dead": "dead",
}
FORWARD = ("вперёд", "вперед", "+", "forward", "fwd", "→", ">")
BACKWARD = ("назад", "-", "−", "back", "←", "<")
FLAG_WORDS = {
    "врасплох": "the_drop",
    "drop": "the_drop",
    "безрассудная": "wild_attack",
    "безрассудно": "wild_attack",
    "дикая": "wild_attack",
    "wild": "wild_attack",
    "свободная": "free",
    "свободно": "free",
    "free": "free",
}


def signed_int(word: str) -> int | None:
    """«+2», «-1», «−4» -> int; None otherwise."""
    if not _SIGNED.match(word):
        return None
    return int(word.replace("−", "-").replace("–", "-"))


def number(word: str) -> int | None:
    return int(word) if _NUMBER.match(word) else None


def direction(word: str) -> int | None:
    w = norm(word)
    if w in FORWARD:
        return 1
    if w in BACKWARD:
        return -1
    return None


def trait_word(words: list[str]) -> tuple[str | None, list[str]]:
    """A known attribute or skill at the start (one or two words) -> its code."""
    for n in (2, 1):
        if len(words) >= n:
            key = norm(" ".join(words[:n]))
            code = ATTRIBUTE_NAMES.get(key) or SKILL_NAMES.get(key)
            if code:
                return code, words[n:]
    return None, words


class ArgsError(ValueError):
    """A word the command cannot use: ``word`` is shown back to the user."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


@dataclass
class AttackArgs:
    skill: str = "fighting"
    damage: str = ""
    ap: int = 0
    range: str = "short"
    cover: str = ""
    light: str = ""
    called_shot: str = ""
    gang_up: int = 0
    flags: set[str] = field(default_factory=set)
    modifiers: list[tuple[str, int]] = field(default_factory=list)


def attack_args(words: list[str]) -> AttackArgs:
    """«стрельба 2d6 бп 2 средняя укрытие лёгкое темнота голова толпа 2 врасплох -1»."""
    out = AttackArgs()
    i = 0
    while i < len(words):
        w = norm(words[i])
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w in SKILLS_BY_WORD:
            out.skill = SKILLS_BY_WORD[w]
        elif w in _AP and number(nxt) is not None:
            out.ap, i = number(nxt) or 0, i + 1
        elif w in ("укрытие", "cover") and norm(nxt) in COVER_WORDS:
            out.cover, i = COVER_WORDS[norm(nxt)], i + 1
        elif w in ("толпа", "gang", "окружение") and number(nxt) is not None:
            out.gang_up, i = number(nxt) or 0, i + 1
        elif w in RANGE_WORDS:
            out.range = RANGE_WORDS[w]
        elif w in LIGHT_WORDS:
            out.light = LIGHT_WORDS[w]
        elif w in CALLED_WORDS:
            out.called_shot = CALLED_WORDS[w]
        elif w in FLAG_WORDS:
            out.flags.add(FLAG_WORDS[w])
        elif signed_int(w) is not None:
            out.modifiers.append(("modifier", signed_int(w) or 0))
        elif _DICE.match(w):
            out.damage = w
        else:
            raise ArgsError(words[i])
        i += 1
    return out


def roll_modifiers(words: list[str]) -> tuple[tuple[tuple[str, int], ...], list[str]]:
    """Signed numbers anywhere in the words -> GM modifiers; the other words."""
    mods: list[tuple[str, int]] = []
    rest: list[str] = []
    for w in words:
        value = signed_int(w)
        if value is None:
            rest.append(w)
        else:
            mods.append(("modifier", value))
    return tuple(mods), rest


def status_changes(words: list[str]) -> tuple[tuple[str, int], ...]:
    """«раны 2 шок 0 усталость 1» -> (("wounds", 2), ("shaken", 0), ("fatigue", 1))."""
    changes: list[tuple[str, int]] = []
    if len(words) % 2:
        raise ArgsError(words[-1])
    for key, value in zip(words[::2], words[1::2], strict=True):
        code = STATUS_WORDS.get(norm(key))
        amount = number(value)
        if code is None:
            raise ArgsError(key)
        if amount is None:
            raise ArgsError(value)
        changes.append((code, amount))
    return tuple(changes)


def duration(words: list[str]) -> tuple[str, list[str]]:
    text = norm(" ".join(words))
    for phrase, code in DURATION_WORDS.items():
        if text.endswith(phrase):
            kept = text[: -len(phrase)].split()
            return code, kept
    return "manual", words
