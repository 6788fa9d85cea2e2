"""Who a command means: a fighter by its id («bandit_2»), or its name as people type it — any
case, a Russian case form, the unique start of it, one letter off (engine/name_match.py) —
taken from the front of the command's words (names may have several words); and, when
nothing fits, the closest names for the refusal."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.utils.i18n import gettext as _

from bot.render.common import quoted
from engine.name_match import match
from engine.storyteller.fight import Fight, Fighter
from engine.words import fold as norm

__all__ = ["norm", "owned", "suggestion", "take"]


def _living(fight: Fight) -> list[Fighter]:
    return [f for f in fight.fighters if not f.dead]


def take(fight: Fight, words: list[str]) -> tuple[Fighter | None, list[str]]:
    """The fighter the first words name (the longest name wins), and the words left."""
    living = _living(fight)
    by_name = {f.character.name: f for f in living}
    for n in range(min(len(words), 4), 0, -1):
        said = " ".join(words[:n])
        by_id = [f for f in living if norm(said) == f.id]
        if len(by_id) == 1:
            return by_id[0], words[n:]
        found = match(said, list(by_name)).found
        if found is not None:
            return by_name[found], words[n:]
    return None, words


def offered(said: str, names: Sequence[str]) -> tuple[str, ...]:
    """The names ``said`` may mean: the closest ones, or all of a short list."""
    return match(said, names).closest or (tuple(names) if len(names) <= 6 else ())


def suggestion(said: str, names: Sequence[str]) -> str:
    """« Maybe: Бандит 1, Бандит 2?» — the closest names, or all of a short list; "" if none."""
    offered_ = offered(said, names)
    if not offered_:
        return ""
    return " " + _("Maybe: {names}?").format(names=", ".join(quoted(n) for n in offered_))


def fighter_suggestion(fight: Fight, said: str) -> str:
    return suggestion(said, [f.character.name for f in _living(fight)])


def owned(fight: Fight, user_id: int) -> list[Fighter]:
    return [f for f in fight.fighters if f.owner == user_id and not f.dead]
