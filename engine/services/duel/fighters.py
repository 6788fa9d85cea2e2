"""A game's fighters (the seed's sheet: «Атака X, Блок X, Уклонение X, Урон dX, Хп X, Броня
X») and the GM's own classes, kept in the game's library (`saved_characters`, system
"duel"): a fighter row holds the engine's `Fighter` JSON (its class copied in, so a duel
keeps the class it was started with), a class row the `FighterClass` JSON under the key
``#class:<code>`` (a key no name gives: names are keyed by `name_key`, never with «#»).

Players save and delete their own fighters; the GM anyone's, and the classes. A fighter's
name is normalised and checked as every name is (engine/services/names.py), at most
`NAME_MAX` characters; fighters are public in a duel, so every name of the game is compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from tortoise.exceptions import IntegrityError

from engine import duel
from engine.describe import Description
from engine.services.errors import NotGm
from engine.services.library import name_key
from engine.services.library_rows import Entry, check_owner, delete_entry, keep_entry, saver_is_gm
from engine.services.names import checked_name, refuse_look_alike, row_id, sought_name
from engine.services.scenes import require_member, require_system
from engine.store.models import ROLE_GM, SavedCharacter

from .code import CODE
from .errors import NoFighter

NAME_MAX = 64  # a fighter's name heads the duel's posts and forms
CLASS_KEY = "#class:"


@dataclass(frozen=True)
class FighterRecord(Entry):
    fighter: duel.Fighter
    updated_at: datetime

    @property
    def sheet(self) -> str:
        """The Russian text block (`engine.duel.format_sheet`)."""
        return duel.format_sheet(self.fighter)


def _record(row: SavedCharacter) -> FighterRecord:
    return FighterRecord(
        row.id,
        row.game_id,
        row.name,
        row.owner_id,
        duel.Fighter.from_dict(row.data),
        row.updated_at,
    )


async def game_classes(game_id: int) -> dict[str, duel.FighterClass]:
    """The built-in classes and the GM's (a GM class of a built-in code replaces it)."""
    rows = await SavedCharacter.filter(
        game_id=game_id, system=CODE, key__startswith=CLASS_KEY
    ).order_by("id")
    return duel.class_table(duel.FighterClass.from_dict(r.data) for r in rows)


def parse_fighter(
    text_or_json: str | dict[str, Any], classes: dict[str, duel.FighterClass]
) -> duel.ParsedSheet:
    """A text block, or the JSON of a `Fighter` (as the Mini App's editor sends it)."""
    data: Any = text_or_json
    if isinstance(data, str) and data.lstrip().startswith("{"):
        try:
            data = json.loads(data)
        except ValueError:
            raise duel.DuelError("sheet_bad_json") from None
    if isinstance(data, str):
        return duel.parse_sheet(data, classes)
    fighter = duel.fighter_from_json(data)
    duel.validate_class(fighter.fighter_class)
    return duel.ParsedSheet(fighter)


async def save_fighter(
    game_id: int,
    text_or_json: str | dict[str, Any],
    *,
    actor_id: int,
    owner_id: int | None = None,
) -> tuple[FighterRecord, tuple[Description, ...]]:
    """Save (or replace, by name) a fighter; its sheet's warnings. A player's fighter is
    theirs (`owner_id` defaults to them, another owner is `not_your_character`); the GM
    names any owner, or none (the GM plays it)."""
    is_gm = await saver_is_gm(game_id, CODE, actor_id)
    owner = owner_id if is_gm else (actor_id if owner_id is None else owner_id)
    await check_owner(game_id, owner, actor_id=actor_id, is_gm=is_gm)
    parsed = parse_fighter(text_or_json, await game_classes(game_id))
    name = checked_name(parsed.fighter.name, NAME_MAX)
    await refuse_look_alike(game_id, name, templates=True, no_names=CLASS_KEY)
    values: dict[str, Any] = {
        "name": name,
        "system": CODE,
        "owner_id": owner,
        "data": replace(parsed.fighter, name=name).to_dict(),
    }
    row = await keep_entry(
        game_id, name_key(name), values, actor_id=actor_id, is_gm=is_gm, missing=NoFighter
    )
    return _record(row), parsed.warnings


async def _find(game_id: int, name_or_id: str | int) -> SavedCharacter:
    query = SavedCharacter.filter(game_id=game_id, system=CODE)
    found = row_id(name_or_id)
    if found is not None:
        row = await query.filter(id=found).first()
    else:
        row = await query.filter(key=name_key(sought_name(str(name_or_id), NAME_MAX))).first()
    if row is None or row.key.startswith(CLASS_KEY):
        await require_system(game_id, CODE)
        raise NoFighter(name=str(name_or_id))
    return row


async def get_fighter(game_id: int, name_or_id: str | int) -> FighterRecord:
    return _record(await _find(game_id, name_or_id))


async def list_fighters(game_id: int) -> list[FighterRecord]:
    """Every fighter of the game, by name (sheets are public in a duel: «прочитать
    особенности своего персонажа и персонажа противника»)."""
    await require_system(game_id, CODE)
    rows = await SavedCharacter.filter(game_id=game_id, system=CODE).order_by("key")
    return [_record(r) for r in rows if not r.key.startswith(CLASS_KEY)]


async def delete_fighter(game_id: int, name_or_id: str | int, *, actor_id: int) -> None:
    """The GM deletes any fighter, a player only their own; duels keep their copies."""
    await delete_entry(game_id, actor_id=actor_id, find=lambda: _find(game_id, name_or_id))


async def save_class(
    game_id: int, data: dict[str, Any] | str, *, actor_id: int
) -> duel.FighterClass:
    """The GM defines (or replaces, by code) a class of the game from its JSON."""
    await require_system(game_id, CODE)
    if await require_member(game_id, actor_id) != ROLE_GM:
        raise NotGm(game_id=game_id, user_id=actor_id)
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError:
            raise duel.DuelError("sheet_bad_json") from None
    found = duel.validate_class(duel.class_from_json(data))
    key = CLASS_KEY + found.code[:200]
    values: dict[str, Any] = {
        "name": found.name[:255],
        "system": CODE,
        "owner_id": None,
        "data": found.to_dict(),
    }
    if not await SavedCharacter.filter(game_id=game_id, key=key).update(**values):
        try:
            await SavedCharacter.create(game_id=game_id, key=key, created_by=actor_id, **values)
        except IntegrityError:  # defined concurrently: the last writer wins
            await SavedCharacter.filter(game_id=game_id, key=key).update(**values)
    return found
