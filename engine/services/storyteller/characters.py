"""A storyteller game's library of characters and NPC templates, and adding them to the
open fight.

A saved character is the engine's `Character` as JSON (`SavedCharacter.data`), read from a
Russian text block (`engine.storyteller.sheet`) or its JSON. `owner_id` None marks an NPC
template: the GM's, unseen by players, added as numbered copies («Бандит 1», «Бандит 2»).
Names are normalised and checked as every name is (engine/services/names.py: invisible
characters removed, at most 255 characters, none that looks just like another name of the
game) and unique per game, compared case- and «ё»-insensitively; a player's entry under a
template's name is kept apart (the template's name is the GM's secret: refusing it would
tell it). Players save and delete only their own characters; the GM any.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.describe import Description
from engine.dice.rng import Rng
from engine.services.aggregates.unit import Unit, run_unit
from engine.services.errors import NoCharacter
from engine.services.library import name_key, private_key
from engine.services.library import slug as fighter_id
from engine.services.library_rows import (
    Entry,
    delete_entry,
    save_entry,
    saver_is_gm,
)
from engine.services.names import row_id, sought_name
from engine.services.scene_service import as_actor
from engine.services.scenes import active_in, require_member, require_system, role_of
from engine.services.storyteller.aggregates import FIGHT
from engine.services.storyteller.code import CODE
from engine.services.storyteller.fights import KIND, FightOutcome, record_step
from engine.services.storyteller.options import load_options
from engine.store.models import ROLE_GM, SavedCharacter
from engine.storyteller import commands as cmd
from engine.storyteller import events as ev
from engine.storyteller.character import Character
from engine.storyteller.decide import decide
from engine.storyteller.errors import StorytellerError
from engine.storyteller.fight import Fight
from engine.storyteller.options import DEFAULT_OPTIONS, Options
from engine.storyteller.sheet import (
    character_from_json,
    check_numbers,
    format_sheet,
    instantiate,
    parse_sheet,
)

MAX_COPIES = 20


@dataclass(frozen=True)
class CharacterRecord(Entry):
    character: Character
    created_by: int
    updated_at: datetime
    warnings: tuple[Description, ...] = ()  # what the text block did not read (on save)

    @property
    def sheet(self) -> str:
        return format_sheet(self.character)


def _record(row: SavedCharacter, warnings: tuple[Description, ...] = ()) -> CharacterRecord:
    return CharacterRecord(
        id=row.id,
        game_id=row.game_id,
        name=row.name,
        owner_id=row.owner_id,
        character=character_from_json(row.data),
        created_by=row.created_by,
        updated_at=row.updated_at,
        warnings=warnings,
    )


def parse_entry(
    text_or_json: str | dict[str, Any], options: Options = DEFAULT_OPTIONS
) -> tuple[Character, tuple[Description, ...]]:
    """A text block (a weapon or an armor by its name alone is a row of the game's tables,
    `options`), or the JSON of `engine.storyteller.sheet.character_to_json`."""
    if isinstance(text_or_json, str) and text_or_json.lstrip().startswith("{"):
        try:
            text_or_json = json.loads(text_or_json)
        except ValueError:
            raise StorytellerError("sheet_bad_json") from None
    if isinstance(text_or_json, str):
        parsed = parse_sheet(text_or_json, options)
        return parsed.character, parsed.warnings
    return check_numbers(character_from_json(text_or_json)), ()


async def save_character(
    game_id: int,
    text_or_json: str | dict[str, Any],
    *,
    actor_id: int,
    owner_id: int | None = None,
    template: bool = False,
) -> CharacterRecord:
    """Save (or replace, by name) a character. A player saves their own (`owner_id` is
    them); the GM saves anyone's (`owner_id`), their own, or an NPC template
    (`template`). The engine's sheet errors pass through as StorytellerError."""
    is_gm = await saver_is_gm(game_id, CODE, actor_id)
    character, warnings = parse_entry(text_or_json, await load_options(game_id))
    owner = None if template and is_gm else (owner_id if owner_id is not None else actor_id)
    row = await save_entry(
        game_id, CODE, name=character.name, owner=owner,
        data=lambda name: dataclasses.replace(character, name=name).to_dict(),
        actor_id=actor_id, is_gm=is_gm,
    )  # fmt: skip
    return _record(row, warnings)


async def _find(game_id: int, name_or_id: str | int, viewer_id: int | None) -> SavedCharacter:
    """By id or name; a player finds no template and their own entry kept apart first."""
    found = row_id(name_or_id)
    if found is not None:
        row = await SavedCharacter.get_or_none(game_id=game_id, id=found)
    else:
        key = name_key(sought_name(str(name_or_id)))
        row = None
        if viewer_id is not None:
            row = await SavedCharacter.get_or_none(game_id=game_id, key=private_key(key, viewer_id))
        row = row or await SavedCharacter.get_or_none(game_id=game_id, key=key)
    if (
        row is not None
        and viewer_id is not None
        and row.owner_id is None
        and await role_of(game_id, viewer_id) != ROLE_GM
    ):
        row = None  # a template is the GM's secret
    if row is None:
        await require_system(game_id, CODE)
        raise NoCharacter(name=str(name_or_id))
    return row


async def get_character(
    game_id: int, name_or_id: str | int, *, viewer_id: int | None = None
) -> CharacterRecord:
    return _record(await _find(game_id, name_or_id, viewer_id))


async def list_characters(game_id: int, *, viewer_id: int | None = None) -> list[CharacterRecord]:
    """The library by name; a player sees the player characters only (templates are the
    GM's); without `viewer_id`, everything."""
    await require_system(game_id, CODE)
    query = SavedCharacter.filter(game_id=game_id)
    if viewer_id is not None and await require_member(game_id, viewer_id) != ROLE_GM:
        query = query.filter(owner_id__isnull=False)
    return [_record(r) for r in await query.order_by("key")]


async def delete_character(game_id: int, name_or_id: str | int, *, actor_id: int) -> None:
    """The GM deletes any entry, a player only their own. Fights keep their copies."""
    await delete_entry(
        game_id, actor_id=actor_id, find=lambda: _find(game_id, name_or_id, actor_id)
    )


def add_commands(state: Fight, record: CharacterRecord, count: int) -> list[cmd.AddFighter]:
    """`AddFighter` for a saved character, or `count` numbered copies of a template, with
    ids free in the fight (chosen on the state the step is decided on)."""
    if not 1 <= count <= MAX_COPIES or (count > 1 and not record.template):
        raise StorytellerError("bad_copies", {"max": MAX_COPIES})
    taken = {f.id for f in state.fighters}
    out = []
    for c in instantiate(record.character, count):
        base = fighter_id(c.name)
        fid = next(
            f"{base}_{n}" if n > 1 else base
            for n in range(1, 10_000)
            if (f"{base}_{n}" if n > 1 else base) not in taken
        )
        taken.add(fid)
        out.append(cmd.AddFighter(fid, c, record.owner_id))
    return out


async def add_to_fight(
    game_id: int,
    name_or_id: str | int,
    *,
    actor_id: int,
    count: int = 1,
    rng: Rng,
) -> FightOutcome:
    """Add a saved character (or `count` copies of a template) to the open fight, as one
    step. Players get the engine's `gm_only`."""
    await require_member(game_id, actor_id)
    record = _record(await _find(game_id, name_or_id, actor_id))

    async def work(unit: Unit) -> FightOutcome:
        role = unit.game.role or ""
        key = await active_in(unit, KIND)
        state = await unit.state(FIGHT, key)
        events: list[ev.Event] = []
        for add in add_commands(state, record, count):
            command = as_actor(add, role, actor_id)
            out = decide(state, command, rng)
            events.extend(out)
            state = FIGHT.fold(state, out)
        return await record_step(unit, key, tuple(events), rng)

    return await run_unit(game_id, work, actor_id=actor_id)
