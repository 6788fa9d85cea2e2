"""`/p прыжок` without a number (issue 25, item 7): the pool from the roller's character —
the fighter they play in the game's fight (its wounds count), else their one saved
character — as the seed names it (attribute + ability), said in the roll's comment so the
roll log, a re-roll and a hidden roll keep it. Without a character: how to give the number.
"""

from __future__ import annotations

import contextlib

from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.parsing import topic_of
from bot.render.common import quoted
from bot.systems.registry import RollHint
from engine.services import find_game, selected_private_game
from engine.services.storyteller import current_fight, list_characters
from engine.services.storyteller.options import game_options
from engine.services.types import GameInfo
from engine.storyteller.character import Character
from engine.storyteller.dice.rolls import DIFFICULTY_WORDS
from engine.storyteller.errors import StorytellerError
from engine.storyteller.options import Options
from engine.storyteller.pools import Pool
from engine.storyteller.preset_rolls import split_preset
from engine.storyteller.presets import Preset, sheet_pool
from engine.storyteller.traits import trait_name

POOL_KIND = "p"
CODE = "storyteller"


def _typed_count(rest: str) -> bool:
    first = rest.split()[0].lower() if rest.split() else ""
    return first[:1].isdigit() or first.startswith(("d10", "к10"))


def _pairs(preset: Preset) -> str:
    """«Сила + Атлетизм / Ловкость + Атлетизм»: the seed's pools of the preset."""
    names = []
    for attribute, ability in preset.pools:
        first = _("Willpower") if attribute == "willpower" else trait_name(attribute)
        names.append(first if ability is None else f"{first} + {trait_name(ability)}")
    return " / ".join(names)


def ask_for_dice(name: str, preset: Preset) -> str:
    return _(
        "How many dice? Write them after the action: <code>/p {name} 4</code> (the pool is "
        "{pools}). With your character's sheet in the game I count them myself."
    ).format(name=quoted(name), pools=quoted(_pairs(preset)))


def _parts(pool: Pool) -> str:
    """«Сила 2 + Атлетизм 1 − 1 (раны)»: how the pool was counted."""
    out = ""
    for part in pool.dice_parts:
        if part.code in ("attribute", "ability", "willpower"):
            continue
        label = {"wounds": _("wounds"), "armor": _("armor")}.get(part.code, part.code)
        sign = "+" if part.value > 0 else "−"
        out += f" {sign} {abs(part.value)} ({label})"
    return out


def used_text(character: Character, preset: Preset, index: int, pool: Pool) -> str:
    attribute, ability = preset.pools[index]
    if attribute == "willpower":
        head = f"{_('Willpower')} {character.willpower}"
    else:
        head = f"{trait_name(attribute)} {character.rating(attribute)}"
        if ability is not None:
            head += f" + {trait_name(ability)} {character.rating(ability)}"
    return _("by the sheet of «{name}»: {pool}").format(
        name=character.name, pool=head + _parts(pool)
    )


async def _game(message: Message) -> GameInfo | None:
    assert message.from_user is not None
    if message.chat.type == "private":
        return await selected_private_game(message.from_user.id)
    return await find_game(message.chat.id, topic_of(message))


async def roller_character(game: GameInfo, user_id: int) -> tuple[Character, Options] | None:
    """The user's fighter in the open fight (with its wounds), else their one saved
    character; None when they have none or several."""
    view = await current_fight(game.id)
    if view is not None:
        mine = [f for f in view.state.fighters if f.owner == user_id and not f.dead]
        if len(mine) == 1:
            return mine[0].character, view.state.options
    records = [r for r in await list_characters(game.id) if r.owner_id == user_id]
    if len(records) == 1:
        return records[0].character, game_options(game)
    return None


async def roll_args(message: Message, kind: str, args: str) -> str | RollHint | None:
    """/p text completed from the roller's sheet (registry.RollArgs)."""
    if kind != POOL_KIND:
        return None
    found = split_preset(args)
    if found is None:
        return None
    preset, rest = found
    if _typed_count(rest):
        return None
    words = args.split()
    name = " ".join(words[: len(words) - len(rest.split())])
    game = await _game(message)
    assert message.from_user is not None
    sheet = None
    if game is not None and game.system == CODE:
        with contextlib.suppress(LookupError, StorytellerError):
            sheet = await roller_character(game, message.from_user.id)
    if sheet is None:
        return RollHint(ask_for_dice(name, preset))
    character, options = sheet
    try:
        index, pool = sheet_pool(character, preset, options)
    except StorytellerError:
        return RollHint(ask_for_dice(name, preset))
    used = used_text(character, preset, index, pool)
    if pool.dice < 1:
        return RollHint(
            _("No dice to roll for «{action}» ({used}).").format(action=quoted(name), used=used)
        )
    text = f"{name} {pool.dice}"
    given = any(w.lower() in DIFFICULTY_WORDS for w in rest.split())
    if pool.difficulty != preset.difficulty and not given:
        text += f" сл {pool.difficulty}"  # the game's «harder» without the ability
    return " ".join(p for p in (text, rest, "— " + used) if p)
