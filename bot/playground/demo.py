"""The demo table: laid out by sending the commands a newcomer would send (through the real
dispatcher), not by writing the database."""

from __future__ import annotations

from bot.playground.play import Playground
from bot.playground.world import GROUP_ID, PlayChat


async def lay_out(play: Playground) -> PlayChat:
    return play.world.chats[GROUP_ID]
