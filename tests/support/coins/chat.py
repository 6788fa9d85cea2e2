"""The example system in the chat: how its result and its odds read, and its ChatSystem (the
contest's router and board: table.py)."""

from __future__ import annotations

from aiogram import html

from bot.render.dice import DiceTexts, OddsTexts, RollTexts, faces
from bot.systems.registry import ChatSystem

from . import table
from .engine import CoinResult


def header(result: CoinResult) -> str:
    return f"🪙 {result.expression}"


def body(result: CoinResult) -> str:
    return f"{faces(result.faces)} → {html.bold(str(result.heads))}"


TEXTS = DiceTexts(
    results={"coin": RollTexts(header, body)},
    odds={
        "coins": OddsTexts({"none": "no heads", "some": "heads"}.__getitem__, "≥{} heads".format)
    },
    usage={"coin": lambda: "<code>/coin 3</code>"},
    hidden_example="<code>/hr coin 2</code>",
)
CHAT = ChatSystem(
    code="coins",
    aliases=("монетки",),
    title=lambda: "Монетки",
    dice=TEXTS,
    routers=lambda: [table.make_router()],
    commands=table.COMMANDS,
    board_sync=table.board_sync,
)
