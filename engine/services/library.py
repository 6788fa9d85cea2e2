"""The keys of the saved-characters library, the same for every rule system: a name's key
(normalised as names are kept, engine/names.py, then case and «ё» folded), a player's private
key beside an NPC template of the same name, and the ASCII id a name gives a combatant or
fighter."""

from __future__ import annotations

import hashlib

from engine.names import normalise_name
from engine.words import fold

KEY_MAX = 255  # SavedCharacter.key
ID_MAX = 24  # combatant ids travel in callback data (64 bytes)
# fmt: off
_LATIN = (
    "a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
    "r", "s", "t", "u", "f", "h", "ts", "ch", "sh", "sch", "", "y", "", "e", "yu", "ya",
)
# fmt: on
_TRANSLIT = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя", _LATIN, strict=True))


def name_key(name: str) -> str:
    """The key of a name; it fits the column even when folding lengthens the name («ß» is
    «ss»)."""
    return _fitted(fold(normalise_name(name)), KEY_MAX)


def _fitted(key: str, size: int) -> str:
    if len(key) <= size:
        return key
    return key[:200] + hashlib.sha256(key.encode()).hexdigest()[:16]


def private_key(key: str, owner_id: int) -> str:
    """The key of a player's entry whose name an NPC template holds: the template's name is
    the GM's secret, so the player's save must answer as for a free name (a key of its own,
    never a public one: `name_key` has no tab). It fits the column however long the name."""
    suffix = f"\t{owner_id}"
    return _fitted(key, KEY_MAX - len(suffix)) + suffix


def slug(name: str) -> str:
    """An ASCII id from a (Russian) name: «Пустой 2» -> "pustoy_2"."""
    out = "".join(_TRANSLIT.get(ch, ch) for ch in name_key(name))
    out = "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in out)
    return "_".join(p for p in out.split("_") if p)[:ID_MAX].strip("_") or "npc"
