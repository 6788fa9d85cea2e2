"""The game's options in the Mini App (the GM's settings form of the Characters tab): the
readings and the weapon and armor tables as the chat's /options sets them
(engine/services/storyteller/options.py). New fights start from them; the running fight
keeps the copy it began with."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from pydantic import Field

from engine.services.storyteller.options import game_options, load_options, set_options
from engine.services.types import GameInfo
from engine.storyteller.options import MISSING_ABILITY_READINGS, Options
from engine.storyteller.sheet import (
    format_armor_row,
    format_weapon_row,
    parse_armor_rows,
    parse_weapon_rows,
)
from webapp.bodies import Body, one_of
from webapp.systems.commands import Ctx, Done

TABLE_MAX = 4000


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
        "weapons": "\n".join(format_weapon_row(w) for w in options.weapons),
        "armor": "\n".join(format_armor_row(a) for a in options.armor),
    }


def game_options_json(game: GameInfo) -> dict[str, Any]:
    return options_json(game_options(game))


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
    weapons: str | None = Field(None, max_length=TABLE_MAX)
    armor: str | None = Field(None, max_length=TABLE_MAX)


def changed(options: Options, a: OptionsArgs) -> Options:
    """The options with the form's fields (a table's text parsed as on a sheet)."""
    fields = {
        k: v
        for k, v in a.model_dump().items()
        if v is not None and v != "" and k not in ("weapons", "armor")
    }
    if a.weapons is not None:
        fields["weapons"] = parse_weapon_rows(a.weapons)
    if a.armor is not None:
        fields["armor"] = parse_armor_rows(a.armor)
    return dataclasses.replace(options, **fields)


async def set_game_options(ctx: Ctx, a: OptionsArgs) -> Done:
    await set_options(
        ctx.game_id, changed(await load_options(ctx.game_id), a), actor_id=ctx.actor_id
    )
    return Done()
