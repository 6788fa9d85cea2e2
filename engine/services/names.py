"""Names as they enter a game through the services, the same for every rule system: a name
saved (a character, an NPC template, a fighter, a game) is normalised (engine/names.py) and
refused — before the database sees it — when nothing visible is left, when it is longer than
the bound, or when it looks just like another name of the game's library; a name looked up
(`/add Имя`, `/char Имя`) is normalised the same way, and one longer than any saved name is
refused rather than sought.

The comparison sees what the saver may see: a player's name is compared with the player
characters only, since an NPC template's name is the GM's secret (a refusal would tell it; the
library keeps such an entry apart, engine/services/library.py). Two look-alike names saved at
the same instant may both pass: the check is a courtesy to the reader, not a constraint.
"""

from __future__ import annotations

from engine.names import NAME_MAX, is_blank, look_alike, normalise_name
from engine.services.errors import NameEmpty, NameLooksAlike, NameTooLong
from engine.store.models import SavedCharacter

ROW_ID_MAX = 2**53  # a library entry's id, as the Mini App may send it


def checked_name(text: str, max_length: int = NAME_MAX) -> str:
    """The name to keep: normalised; `name_empty` when nothing visible is left,
    `name_too_long` past `max_length` characters."""
    name = normalise_name(text)
    if is_blank(name):
        raise NameEmpty(max=max_length)
    if len(name) > max_length:
        raise NameTooLong(max=max_length)
    return name


def sought_name(text: str, max_length: int = NAME_MAX) -> str:
    """A name to look up, normalised as a saved one is; `name_too_long` for one that no saved
    name can be (so the lookup never reaches the database with it)."""
    name = normalise_name(text)
    if len(name) > max_length:
        raise NameTooLong(max=max_length)
    return name


def row_id(name_or_id: str | int) -> int | None:
    """The library id a reference means: an int, or a text of ASCII digits alone; None for a
    name. An id out of any row's range is -1 (found nowhere, never sent to the database)."""
    if isinstance(name_or_id, int):
        value = name_or_id
    else:
        text = normalise_name(name_or_id)
        if not (text.isascii() and text.isdigit()):
            return None
        value = int(text) if len(text) <= len(str(ROW_ID_MAX)) else -1
    return value if 0 < value <= ROW_ID_MAX else -1


async def refuse_look_alike(
    game_id: int,
    name: str,
    *,
    templates: bool,
    except_id: int | None = None,
    no_names: str | None = None,
) -> None:
    """`name_looks_alike` when `name` looks just like another name of the game's library
    (the same name, up to case and «ё», is the same entry: no refusal). `templates`: compare
    with the NPC templates too (the GM's save); `except_id`: the entry being renamed;
    `no_names`: a key prefix of rows that hold no name of the library (a system's own data)."""
    rows = await SavedCharacter.filter(game_id=game_id).values_list("id", "key", "name", "owner_id")
    names = [
        str(other)
        for row, key, other, owner in rows
        if row != except_id
        and (templates or owner is not None)
        and not (no_names and str(key).startswith(no_names))
    ]
    found = look_alike(name, names)
    if found is not None:
        raise NameLooksAlike(name=name, existing=found)
