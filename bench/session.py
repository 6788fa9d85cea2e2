"""Benchmark: the CPU one Bot API call costs the bot, Kosti's session against aiogram's own.

Run: ``uv run python bench/session.py [--calls N]``

Each session sends the same calls, one after the other, to the tests' fake Bot API served by
a child process (so that its work is not counted): a board's edit — a Russian text of 600
characters and a keyboard of twelve buttons, answered by Telegram with the whole message, its
keyboard included — and a plain roll line. Reported: this process's CPU per call (building
the call, the HTTP request, reading the answer), both sessions alternating in rounds
(medians), and their ratio. aiogram's `AiohttpSession` sends an urlencoded form and reads
the answer whole; bot/session.py sends JSON and takes the keyboard it sent for the one the
answer echoes.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.session.base import BaseSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiohttp import web

from bench.harness import HOST, free_port
from bot.session import BotSession
from tests.support.fake_botapi import BOT_TOKEN, FakeBotAPI

ROUNDS = 5
ROLL_TEXT = "🎲 <b>Игрок</b>: <code>2d6+1</code> [3, 4] + 1 = <b>8</b>"
CHAT = -1002000000001
BOARD_TEXT = "\n".join(
    [
        "⚔️ <b>Бой · раунд 3</b>",
        *(f"✓ K♦ Боец {i}: Ранен ×{i % 3}, Шок — 🎲{i}" for i in range(14)),
        "<b>▶️ Ход: Гриммджо</b>",
    ]
)


def board() -> InlineKeyboardMarkup:
    """The board's keyboard: twelve buttons in four rows."""
    rows = [
        [
            InlineKeyboardButton(text=f"Атака {r}{c}", callback_data=f"cmb:atk:{r}:{c}:1234")
            for c in range(3)
        ]
        for r in range(4)
    ]
    return InlineKeyboardMarkup(inline_keyboard=rows)


async def serve_fake(port: int) -> None:
    runner = web.AppRunner(FakeBotAPI().app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, HOST, port).start()
    await asyncio.Event().wait()


async def cpu_per_call(bot: Bot, calls: int, message_id: int, edit: bool) -> float:
    start = time.process_time()
    for _ in range(calls):
        if edit:
            await bot.edit_message_text(
                BOARD_TEXT, chat_id=CHAT, message_id=message_id, reply_markup=board()
            )
        else:
            await bot.send_message(CHAT, ROLL_TEXT)
    return (time.process_time() - start) / calls


async def main(calls: int) -> None:
    port = free_port()
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve-fake", str(port)
    )
    api = TelegramAPIServer.from_base(f"http://{HOST}:{port}")
    makers: dict[str, Callable[[], BaseSession]] = {
        "aiogram": lambda: AiohttpSession(api=api),
        "kosti": lambda: BotSession(api=api),
    }
    default = DefaultBotProperties(parse_mode=ParseMode.HTML)
    bots = {name: Bot(BOT_TOKEN, session=make(), default=default) for name, make in makers.items()}
    try:
        probe = bots["aiogram"]
        for _ in range(100):  # the fake is up once it answers
            try:
                await probe.get_me()
                break
            except Exception:  # not listening yet
                await asyncio.sleep(0.1)
        else:
            raise RuntimeError("the fake Bot API did not start")
        posted = {}
        for name, b in bots.items():
            posted[name] = (await b.send_message(CHAT, "доска")).message_id
        results: dict[tuple[str, bool], list[float]] = {}
        for name, b in bots.items():  # warm-up
            await cpu_per_call(b, 50, posted[name], True)
            await cpu_per_call(b, 50, posted[name], False)
        for _ in range(ROUNDS):
            for edit in (True, False):
                for name, b in bots.items():
                    cost = await cpu_per_call(b, calls, posted[name], edit)
                    results.setdefault((name, edit), []).append(cost)
        print(f"{calls} calls per session and round, {ROUNDS} alternating rounds (medians)")
        for edit, label in ((True, "a board's edit (12 buttons)"), (False, "a roll line")):
            ours = statistics.median(results[("kosti", edit)]) * 1000
            theirs = statistics.median(results[("aiogram", edit)]) * 1000
            print(
                f"  {label:<28} kosti {ours:.3f} ms   aiogram's session {theirs:.3f} ms   "
                f"ratio {ours / theirs:.2f}"
            )
    finally:
        for b in bots.values():
            await b.session.close()
        child.terminate()
        await child.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--serve-fake", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_fake:
        asyncio.run(serve_fake(args.serve_fake))
    else:
        asyncio.run(main(max(10, args.calls)))
