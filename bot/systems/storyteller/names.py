"""Who a command means: a fighter by its id («bandit_2»), its name as the board shows it or the
start of it, taken from the front of the command's words (names may have several words)."""

from __future__ import annotations

from engine.storyteller.fight import Fight, Fighter
from engine.words import fold as norm


def take(fight: Fight, words: list[str]) -> tuple[Fighter | None, list[str]]:
    """The fighter the first words name (the longest name wins), and the words left."""
    living = [f for f in fight.fighters if not f.dead]
    for n in range(min(len(words), 4), 0, -1):
        said = norm(" ".join(words[:n]))
        exact = [f for f in living if said in (f.id, norm(f.character.name))]
        if len(exact) == 1:
            return exact[0], words[n:]
    if words:
        said = norm(words[0])
        start = [f for f in living if norm(f.character.name).startswith(said)]
        if len(start) == 1:
            return start[0], words[1:]
    return None, words


def owned(fight: Fight, user_id: int) -> list[Fighter]:
    return [f for f in fight.fighters if f.owner == user_id and not f.dead]
