"""The saved-characters library's writes, the same for every rule system: who may save an
entry for whom, where a player's entry goes, and the row kept by its name's key (replaced
in place, created once however many saves race). A system's library module parses its
sheets and builds the row's values; this keeps them (engine/services/library.py: the keys).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from tortoise import timezone
from tortoise.exceptions import IntegrityError

from engine.services.errors import NoCharacter, NotMember, NotYourCharacter, ServiceError
from engine.services.library import name_key, private_key
from engine.services.names import checked_name, refuse_look_alike
from engine.services.scenes import require_member, require_system, role_of
from engine.store.models import ROLE_GM, SavedCharacter


@dataclass(frozen=True)
class Entry:
    """A library entry as a system's services return it; the system's record adds its
    sheet (the engine's character, fighter…) and what else it keeps."""

    id: int
    game_id: int
    name: str
    owner_id: int | None  # None: an NPC template, or a character the GM plays

    @property
    def template(self) -> bool:
        return self.owner_id is None


async def saver_is_gm(game_id: int, code: str, actor_id: int) -> bool:
    """Whether the saver is the GM of an active game of the system `code` (`wrong_system`,
    `not_member` otherwise)."""
    await require_system(game_id, code)
    return await require_member(game_id, actor_id) == ROLE_GM


async def check_owner(game_id: int, owner: int | None, *, actor_id: int, is_gm: bool) -> None:
    """A player saves only for themselves (`not_your_character`); the GM for anyone of the
    game (`not_member` for someone who is not in it)."""
    if not is_gm and owner != actor_id:
        raise NotYourCharacter(owner_id=owner)
    if owner is not None and owner != actor_id and await role_of(game_id, owner) is None:
        raise NotMember(game_id=game_id, user_id=owner)


async def player_key(game_id: int, key: str, actor_id: int) -> str:
    """Where a player's save goes: their entry kept apart from a template of the same name,
    else — if a template holds the name — such a kept-apart entry, else the name's key."""
    own = private_key(key, actor_id)
    if await SavedCharacter.exists(game_id=game_id, key=own):
        return own
    row = await SavedCharacter.get_or_none(game_id=game_id, key=key)
    return own if row is not None and row.owner_id is None else key


async def save_entry(
    game_id: int,
    code: str,
    *,
    name: str,
    owner: int | None,
    data: Callable[[str], dict[str, Any]],
    actor_id: int,
    is_gm: bool,
    count: int = 1,
    renaming: int | None = None,
) -> SavedCharacter:
    """Save a parsed character of the system `code` for `owner` (`check_owner`) under its
    checked name (engine/services/names.py: `renaming`, the entry whose new name this is, is
    never compared with it; a player's save not with the GM's templates), kept by the name's
    key — a player's beside a template of the name (`player_key`). `data`: the row's JSON,
    given the checked name."""
    await check_owner(game_id, owner, actor_id=actor_id, is_gm=is_gm)
    name = checked_name(name)
    await refuse_look_alike(game_id, name, templates=is_gm, except_id=renaming)
    values = {"name": name, "system": code, "owner_id": owner, "count": count, "data": data(name)}
    key = name_key(name) if is_gm else await player_key(game_id, name_key(name), actor_id)
    return await keep_entry(
        game_id, key, values, actor_id=actor_id, is_gm=is_gm, missing=NoCharacter
    )


async def keep_entry(
    game_id: int,
    key: str,
    values: dict[str, Any],
    *,
    actor_id: int,
    is_gm: bool,
    missing: Callable[..., ServiceError],
) -> SavedCharacter:
    """Replace the entry under `key` (a player only their own: `not_your_character`) or
    create it; a save that raced another under the same name replaces it. `missing`: the
    system's refusal if the row vanished twice in a row."""
    for _ in range(2):
        row = await SavedCharacter.get_or_none(game_id=game_id, key=key)
        if row is not None:
            _refuse_others(row, actor_id=actor_id, is_gm=is_gm)
            await SavedCharacter.filter(id=row.id).update(**values, updated_at=timezone.now())
            await row.refresh_from_db()
            return row
        try:
            return await SavedCharacter.create(
                game_id=game_id, key=key, created_by=actor_id, **values
            )
        except IntegrityError:  # saved concurrently under the same name: replace it
            continue
    raise missing(name=values["name"])  # pragma: no cover - the row vanished twice in a row


async def delete_entry(
    game_id: int, *, actor_id: int, find: Callable[[], Awaitable[SavedCharacter]]
) -> None:
    """The GM deletes any entry `find` finds, a player only their own (`not_your_character`);
    the scenes keep their copies."""
    is_gm = await require_member(game_id, actor_id) == ROLE_GM
    row = await find()
    _refuse_others(row, actor_id=actor_id, is_gm=is_gm)
    await row.delete()


def _refuse_others(row: SavedCharacter, *, actor_id: int, is_gm: bool) -> None:
    if not is_gm and row.owner_id != actor_id:
        raise NotYourCharacter(name=row.name, owner_id=row.owner_id)
