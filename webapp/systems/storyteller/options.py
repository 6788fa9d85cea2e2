"""The game's options in the Mini App (the GM's settings form of the Characters tab): the
readings, the weapon and armor tables, the healing times and the aimed attacks' targets as
the chat's /options sets them (engine/services/storyteller/options.py; a table's rows are
checked by engine/storyteller/tables.py). New fights start from them; the running fight
keeps the copy it began with."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from pydantic import Field

from engine.services.storyteller.options import game_options, load_options, set_options
from engine.services.types import GameInfo
from engine.storyteller import tables
from engine.storyteller.options import DAMAGE_TYPES, MISSING_ABILITY_READINGS, Options
from engine.storyteller.sheet import (
    format_armor_row,
    format_weapon_row,
    parse_armor_rows,
    parse_weapon_rows,
)
from webapp.bodies import Body, one_of
from webapp.systems.commands import Ctx, Done

TABLE_MAX = 4000
TIME_MAX = 20
HEALING, AIM = "healing", "aim_targets"


def healing_json(options: Options) -> dict[str, dict[str, str]]:
    """Each damage type's times by level, written as the form edits them («3д»)."""
    out: dict[str, dict[str, str]] = {t: {} for t in DAMAGE_TYPES}
    for row in options.healing:
        out.setdefault(row.damage_type, {})[row.level] = tables.format_duration(row.hours)
    return out


def options_json(options: Options) -> dict[str, Any]:
    return {
        "missing_ability": options.missing_ability,
        "missing_ability_step": options.missing_ability_step,
        "armor_soaks_destroying_attack": options.armor_soaks_destroying_attack,
        "max_actions": options.max_actions,
        "flank_dice": options.flank_dice,
        "rear_dice": options.rear_dice,
        "blind_difficulty": options.blind_difficulty,
        "hide_npcs": options.hide_npcs,
        "gm_review": options.gm_review,
        "initiative_once": options.initiative_once,
        "ones_cancel_damage": options.ones_cancel_damage,
        "all_extra_damage": options.all_extra_damage,
        "simultaneous_ties": options.simultaneous_ties,
        "defense_seconds": options.defense_seconds,
        "defense_by_default": options.defense_by_default,
        "weapons": "\n".join(format_weapon_row(w) for w in options.weapons),
        "armor": "\n".join(format_armor_row(a) for a in options.armor),
        "levels": [{"code": h.code, "name": h.name} for h in options.health],
        HEALING: healing_json(options),
        "healing_default": tables.healing_is_default(options),
        AIM: [
            {"code": t.code, "name": t.name, "difficulty": t.difficulty, "damage": t.damage}
            for t in options.aim_targets
        ],
        "aim_default": tables.aim_is_default(options),
    }


def game_options_json(game: GameInfo) -> dict[str, Any]:
    return options_json(game_options(game))


Times = Annotated[dict[str, Annotated[str, Field(max_length=TIME_MAX)]], Field(max_length=20)]


class AimRow(Body):
    code: Annotated[str, Field(max_length=32)]
    difficulty: int
    damage: int


class OptionsArgs(Body):
    """Every field optional: what is absent stays as the game has it."""

    missing_ability: Annotated[str, one_of(("", *MISSING_ABILITY_READINGS))] = ""
    missing_ability_step: int | None = Field(None, ge=0, le=5)
    armor_soaks_destroying_attack: bool | None = None
    max_actions: int | None = Field(None, ge=1, le=5)
    flank_dice: int | None = Field(None, ge=0, le=5)
    rear_dice: int | None = Field(None, ge=0, le=5)
    blind_difficulty: int | None = Field(None, ge=0, le=5)
    hide_npcs: bool | None = None
    gm_review: bool | None = None
    initiative_once: bool | None = None
    ones_cancel_damage: bool | None = None
    all_extra_damage: bool | None = None
    simultaneous_ties: bool | None = None
    defense_seconds: int | None = Field(None, ge=0, le=600)
    defense_by_default: bool | None = None
    weapons: str | None = Field(None, max_length=TABLE_MAX)
    armor: str | None = Field(None, max_length=TABLE_MAX)
    # {damage type: {level: "3д"}}: the rows given change, the others stay
    healing: dict[str, Times] | None = Field(None, max_length=len(DAMAGE_TYPES))
    aim_targets: list[AimRow] | None = Field(None, max_length=10)
    reset: Annotated[str, one_of(("", HEALING, AIM))] = ""  # a table back to its default


def changed(options: Options, a: OptionsArgs) -> Options:
    """The options with the form's fields (a table's text parsed as on a sheet)."""
    tabled = ("weapons", "armor", HEALING, AIM, "reset")
    fields = {
        k: v for k, v in a.model_dump().items() if v is not None and v != "" and k not in tabled
    }
    if a.weapons is not None:
        fields["weapons"] = parse_weapon_rows(a.weapons)
    if a.armor is not None:
        fields["armor"] = parse_armor_rows(a.armor)
    options = dataclasses.replace(options, **fields)
    for kind, times in (a.healing or {}).items():
        damage_type = tables.damage_type_of(kind)
        for level, text in times.items():
            hours = tables.parse_duration(text)
            options = tables.set_heal_time(options, damage_type, level, hours)
    for row in a.aim_targets or ():
        options = tables.set_aim(options, row.code, row.difficulty, row.damage)
    if a.reset == HEALING:
        options = tables.default_healing(options)
    elif a.reset == AIM:
        options = tables.default_aim(options)
    return options


async def set_game_options(ctx: Ctx, a: OptionsArgs) -> Done:
    await set_options(
        ctx.game_id, changed(await load_options(ctx.game_id), a), actor_id=ctx.actor_id
    )
    return Done()
