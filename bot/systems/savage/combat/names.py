"""Who a command is about: Russian names typed in chat -> combatant and character ids.

Names are matched case- and «ё»-insensitively: a character's name («Пустой 2»), a
combatant's name with or without its «×N» («Пустые ×6», «Пустые»), an id («pustoy-2»),
or a unique beginning of one word («Гримм»). A name may span several words: the longest
match wins, so «/attack Пустой 2 Ичиго» reads «Пустой 2» and then «Ичиго».
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.savage import Character, Combatant, Encounter
from engine.words import fold as norm

MAX_NAME_WORDS = 4
_GROUP_SUFFIX = re.compile(r"\s*×\s*\d+$")
# «×2», «x2» (Latin), «х2» (Cyrillic), «*2»; a letter x/х only after a space («Монах 2» is
# a name, not «Мона ×2»)
COUNT_MARK = r"(?:\s+[xх*]|\s*[×*])\s*(\d{1,2})$"
_COUNT_MARK = re.compile(COUNT_MARK, re.IGNORECASE)


def _key(text: str) -> str:
    """A name as matched: normalized, and a group's count mark written one way."""
    return _COUNT_MARK.sub(r" ×\1", norm(text))


@dataclass(frozen=True)
class Ref:
    """A combatant, and the character meant (None: a group named as a whole)."""

    combatant: Combatant
    character: Character | None

    @property
    def name(self) -> str:
        return self.character.name if self.character is not None else self.combatant.name

    @property
    def character_id(self) -> str | None:
        """The one character: named, or the only member still standing in a group."""
        if self.character is not None:
            return self.character.id
        standing = self.combatant.active_members or self.combatant.members
        return standing[0].id if len(standing) == 1 else None


def _keys(state: Encounter) -> list[tuple[str, Ref]]:
    keys: list[tuple[str, Ref]] = []
    for c in state.combatants:
        whole = Ref(c, c.members[0] if len(c.members) == 1 else None)
        keys += [(norm(c.id), whole), (_key(c.name), whole)]
        keys.append((norm(_GROUP_SUFFIX.sub("", c.name)), whole))
        if len(c.members) > 1:
            for m in c.members:
                member = Ref(c, m)
                keys += [(norm(m.id), member), (norm(m.name), member)]
                keys.append((norm(m.name).replace(" ", ""), member))
    return keys


def find(state: Encounter, text: str) -> Ref | None:
    """Exact name or id first, then a unique beginning."""
    wanted = _key(text)
    if not wanted:
        return None
    keys = _keys(state)
    exact = {id(ref.combatant): ref for key, ref in keys if key == wanted}
    if len(exact) == 1:
        return next(iter(exact.values()))
    exact_refs = [ref for key, ref in keys if key == wanted]
    if exact_refs:
        return exact_refs[0]
    starts = {(ref.combatant.id, ref.name): ref for key, ref in keys if key.startswith(wanted)}
    return next(iter(starts.values())) if len(starts) == 1 else None


def exact(state: Encounter, text: str) -> Ref | None:
    """Only a whole name (a character's, a group's with or without its «×N»): what a
    destructive command such as `/remove` needs — never a beginning of one."""
    wanted = _key(text)
    found = [ref for key, ref in _keys(state) if key == wanted and wanted]
    return found[0] if found else None


def take(state: Encounter, words: list[str]) -> tuple[Ref | None, list[str]]:
    """The longest run of leading words that names someone, and the words left."""
    for n in range(min(MAX_NAME_WORDS, len(words)), 0, -1):
        ref = find(state, " ".join(words[:n]))
        if ref is not None:
            return ref, words[n:]
    return None, words


def owned_by(state: Encounter, user_id: int) -> list[Ref]:
    """Characters of the player in the encounter, in board order."""
    return [Ref(c, m) for c in state.combatants for m in c.members if m.owner == user_id]
