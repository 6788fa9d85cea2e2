"""The demo table: the first installed system's demo (`ChatSystem.demo`), laid out by sending
the commands a newcomer would send, through the real dispatcher (nothing is written to the
database directly). The GM has opened the bot; the players have not (so a hidden roll shows how
Telegram's rule is met). The fight waits for its first deal."""

from __future__ import annotations

from bot.playground.play import Playground
from bot.playground.world import GROUP_ID, PlayChat
from bot.systems import registry


def demo_script() -> tuple[tuple[int, str], ...]:
    return next((system.demo for system in registry.installed() if system.demo), ())


def demo_hint() -> str:
    system = next((s for s in registry.installed() if s.demo and s.demo_hint), None)
    return system.demo_hint() if system and system.demo_hint else ""


async def lay_out(play: Playground) -> PlayChat:
    """Send the demo's commands once (a second call only answers the group)."""
    group = play.world.chats[GROUP_ID]
    if play.demo_laid_out:
        return group
    play.demo_laid_out = True
    cast = list(play.world.users)
    for who, text in demo_script():
        user = cast[who]
        chat = user if text == "/start" else GROUP_ID
        await play.write(user, chat, text)
    return group
