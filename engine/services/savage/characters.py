"""A game's library of SWADE characters and NPC templates, and adding them to the
active encounter.

A saved character is the engine's `Character` (fresh state) plus how many copies it
stands for (`count` > 1: a group of Extras, «×6» in the text block). `owner_id` None
marks an NPC template. Names are normalised and checked as every name is
(engine/services/names.py: invisible characters removed, at most 255 characters, none that
looks just like another name of the game) and unique per game, compared case- and
«ё»-insensitively — except that a player's entry under a template's name is kept apart
(`private_key`): the template's name is the GM's secret, and a refusal would tell it.
Players save and delete only their own characters; the GM any, and NPC templates.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import savage
from engine.describe import Description
from engine.dice.rng import Rng
from engine.savage.sheet import MAX_GROUP, with_owner
from engine.services.aggregates.unit import Unit, run_unit
from engine.services.errors import NoCharacter
from engine.services.library import name_key, slug
from engine.services.library_rows import (
    Entry,
    delete_entry,
    save_entry,
    saver_is_gm,
)
from engine.services.names import row_id, sought_name
from engine.services.savage.aggregates import ENCOUNTER
from engine.services.savage.code import CODE
from engine.services.savage.encounters import KIND, EncounterOutcome, record_step
from engine.services.scene_service import as_actor
from engine.services.scenes import (
    active_in,
    member_in,
    require_member,
    require_system,
)
from engine.store.models import ROLE_GM, Role, SavedCharacter, User


@dataclass(frozen=True)
class CharacterRecord(Entry):
    count: int  # > 1: a group of Extras
    character: savage.Character
    created_by: int
    updated_at: datetime
    owner_name: str | None = None  # the player's first name, for «игрок Имя»
    warnings: tuple[Description, ...] = ()  # of the text just saved (parse_sheet)

    @property
    def sheet(self) -> str:
        """The Russian text block (`engine.savage.format_sheet`), the player by name."""
        return savage.format_sheet(self.character, self.count, owner_name=self.owner_name)


def _record(row: SavedCharacter, names: dict[int, str] | None = None) -> CharacterRecord:
    owner = row.owner_id
    return CharacterRecord(
        id=row.id,
        game_id=row.game_id,
        name=row.name,
        owner_id=row.owner_id,
        count=row.count,
        character=savage.Character.from_dict(row.data),
        created_by=row.created_by,
        updated_at=row.updated_at,
        owner_name=(names or {}).get(owner) if owner is not None else None,
    )


async def _names(rows: list[SavedCharacter]) -> dict[int, str]:
    """The first names of the rows' owners (one query)."""
    ids = {row.owner_id for row in rows if row.owner_id is not None}
    if not ids:
        return {}
    users = await User.filter(id__in=ids).values_list("id", "first_name")
    return {int(i): str(name) for i, name in users}


async def _records(rows: list[SavedCharacter]) -> list[CharacterRecord]:
    names = await _names(rows)
    return [_record(row, names) for row in rows]


async def resolve_owner(game_id: int, spec: savage.SheetSpec) -> savage.SheetSpec:
    """«игрок Имя» of a block as the member of the game of that first name or @username
    (`engine.savage.sheet.with_owner`: `sheet_unknown_owner` for none or two)."""
    if spec.owner_name is None:
        return spec
    rows = await Role.filter(game_id=game_id).values_list(
        "user_id", "user__first_name", "user__username"
    )
    return with_owner(spec, [(int(u), str(f), n) for u, f, n in rows])


def parse_entry(text_or_json: str | dict[str, Any], owner: int | None) -> savage.SheetSpec:
    """A text block, or the JSON of `character_to_json` (an optional "count" key)."""
    data: Any = text_or_json
    if isinstance(data, str) and data.lstrip().startswith("{"):
        try:
            data = json.loads(data)
        except ValueError as exc:
            raise savage.RuleError("sheet_bad_json", {"detail": str(exc)[:80]}) from None
    if isinstance(data, str):
        return savage.parse_sheet(data, owner=owner)
    character = savage.character_from_json(data)
    count = data.get("count", 1) if isinstance(data, dict) else 1
    if not isinstance(count, int) or not 1 <= count <= MAX_GROUP:
        raise savage.RuleError("bad_group_size", {"max": MAX_GROUP})
    if owner is not None and character.owner is None:
        character = dataclasses.replace(character, owner=owner)
    return savage.SheetSpec(character, count)


async def save_character(
    game_id: int,
    text_or_json: str | dict[str, Any],
    *,
    actor_id: int,
    owner_id: int | None = None,
    renaming: int | None = None,
) -> CharacterRecord:
    """Save (or replace, by name) a character from a text block or JSON.

    The GM may save anyone's character (`owner_id`, or «игрок N» in the block) and NPC
    templates (no owner). A player saves their own: the owner defaults to them, and
    another owner — or replacing another player's entry — is `not_your_character`; under a
    template's name their entry is kept apart (`private_key`), answered as a free name. The
    engine's sheet errors (`sheet_*`, `bad_group_size`) pass through as RuleError; a name
    is refused as every name is (engine/services/names.py) — `renaming`: the entry whose
    new name this is (the Mini App's editor), never compared with it.
    """
    is_gm = await saver_is_gm(game_id, CODE, actor_id)
    spec = parse_entry(text_or_json, owner_id if is_gm or owner_id is not None else actor_id)
    if owner_id is None:
        spec = await resolve_owner(game_id, spec)
    character = spec.character
    if owner_id is not None:
        character = dataclasses.replace(character, owner=owner_id)
    # Saved with a fresh state and no id: ids are given when added to an encounter.
    fresh = dataclasses.replace(character, id="", status=savage.Status())
    row = await save_entry(
        game_id, CODE, name=character.name, owner=character.owner, count=spec.count,
        data=lambda name: dataclasses.replace(fresh, name=name).to_dict(),
        actor_id=actor_id, is_gm=is_gm, renaming=renaming,
    )  # fmt: skip
    return await _saved(row, spec)


async def _saved(row: SavedCharacter, spec: savage.SheetSpec) -> CharacterRecord:
    [record] = await _records([row])
    return dataclasses.replace(record, warnings=spec.warnings)


async def _find(game_id: int, name_or_id: str | int) -> SavedCharacter:
    found = row_id(name_or_id)  # ids win over names
    if found is not None:
        row = await SavedCharacter.get_or_none(game_id=game_id, id=found)
    else:
        key = name_key(sought_name(str(name_or_id)))
        row = await SavedCharacter.get_or_none(game_id=game_id, key=key)
    if row is None:
        await require_system(game_id, CODE)  # NoGame / WrongSystem first
        raise NoCharacter(name=str(name_or_id))
    return row


async def get_character(game_id: int, name_or_id: str | int) -> CharacterRecord:
    [record] = await _records([await _find(game_id, name_or_id)])
    return record


async def list_characters(game_id: int, *, viewer_id: int | None = None) -> list[CharacterRecord]:
    """The library by name. With `viewer_id`, a non-GM sees the player characters only
    (NPC templates are the GM's secret, DESIGN.md decision 3); without, everything."""
    query = SavedCharacter.filter(game_id=game_id)
    if viewer_id is not None and await require_member(game_id, viewer_id) != ROLE_GM:
        query = query.filter(owner_id__isnull=False)
    rows = await query.order_by("key")
    if not rows:
        await require_system(game_id, CODE)
    return await _records(rows)


async def delete_character(game_id: int, name_or_id: str | int, *, actor_id: int) -> None:
    """The GM deletes any entry, a player only their own. Encounters keep their copies."""
    await delete_entry(game_id, actor_id=actor_id, find=lambda: _find(game_id, name_or_id))


def _free_id(state: savage.Encounter, base: str, count: int) -> str:
    """`base`, or `base_2`, `base_3`…: free for the combatant and its members' ids."""
    taken = {c.id for c in state.combatants} | {m.id for m in state.characters}
    for n in range(1, 10_000):
        candidate = base if n == 1 else f"{base}_{n}"
        ids = {candidate} | {f"{candidate}-{i}" for i in range(1, count + 1)}
        if not ids & taken:
            return candidate
    raise savage.RuleError("combatant_exists", {"id": base})  # pragma: no cover


def add_command(
    state: savage.Encounter, record: CharacterRecord, count: int
) -> savage.AddCombatant:
    """`AddCombatant` for `count` copies of a saved character on the given state: one
    character, or a group of Extras «Name ×n» with members `<id>-1 … <id>-n`."""
    base = _free_id(state, slug(record.name), count)
    first = _next_number(state, record.name) if count > 1 or _numbered(state, record.name) else 1
    members = savage.instantiate(record.character, count, base, first=first)
    if count == 1:
        name = members[0].name
    elif first == 1:
        name = f"{record.name} ×{count}"
    else:
        name = f"{record.name} {first}–{first + count - 1}"
    return savage.AddCombatant(base, name, members)


def _numbers(state: savage.Encounter, name: str) -> list[int]:
    """The numbers of the fighters named «<name> N» (and 1 for a fighter named just
    «<name>»)."""
    found = []
    for c in state.characters:
        if c.name == name:
            found.append(1)
        head, _, tail = c.name.rpartition(" ")
        if head == name and tail.isdigit():
            found.append(int(tail))
    return found


def _numbered(state: savage.Encounter, name: str) -> bool:
    return bool(_numbers(state, name))


def _next_number(state: savage.Encounter, name: str) -> int:
    """Extras of one template are numbered on: a second «/add Пустой ×2» gives «Пустой 3»
    and «Пустой 4», never a second «Пустой 1»."""
    return max(_numbers(state, name), default=0) + 1


async def add_to_encounter(
    game_id: int,
    name_or_id: str | int,
    *,
    actor_id: int,
    count: int | None = None,
    rng: Rng,
) -> EncounterOutcome:
    """Instantiate a saved character or template (`count` copies, default its own count)
    as a combatant of the active encounter. The id is chosen on the state the command is
    decided on, so simultaneous adds never clash. Players get the engine's `gm_only`."""
    await require_member(game_id, actor_id)  # not_member before no_character
    record = _record(await _find(game_id, name_or_id))
    n = record.count if count is None else count

    async def work(unit: Unit) -> EncounterOutcome:
        role = member_in(unit)
        key = await active_in(unit, KIND)
        state = await unit.state(ENCOUNTER, key)
        command = as_actor(add_command(state, record, n), role, actor_id)
        return await record_step(unit, key, savage.decide(state, command, rng), rng)

    return await run_unit(game_id, work, actor_id=actor_id)
