"""«/scene игроки|ведущий» (the GM): who declares the light and The Drop in this game
(engine/savage/authority.py: the seed does not say, so the game's table decides)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from bot.middlewares.refusals import Refusal
from bot.systems.savage.combat.scene import game_here
from bot.systems.savage.render import combat_turns as texts
from engine.services.savage import set_players_set_scene, table_of

PLAYERS = ("игроки", "игрок", "players")
GM = ("ведущий", "гм", "мастер", "gm")


def register(router: Router) -> None:
    router.message.register(on_scene, Command("scene"))


async def on_scene(message: Message, command: CommandObject) -> None:
    game = await game_here(message)
    word = (command.args or "").strip().lower()
    if not word:
        players = table_of(game).players_set_scene
        await message.reply(texts.scene_players() if players else texts.scene_gm())
        return
    if word not in PLAYERS + GM:
        raise Refusal(texts.scene_usage())
    assert message.from_user is not None
    on = word in PLAYERS
    await set_players_set_scene(game.id, on, actor_id=message.from_user.id)
    await message.reply(texts.scene_players() if on else texts.scene_gm())
