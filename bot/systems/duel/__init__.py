"""The forum duel in the chat (seed 003): fighters and duels in the thread (one per forum
topic), sealed turns submitted in the DM with the bot by buttons, the GM's review there, the
published posts with their receipts (bot/systems/duel/router.py and its screens, tell.py,
render/). Registered in bot/systems/installed.py."""

from __future__ import annotations

from aiogram import Router
from aiogram.utils.i18n import gettext as _

from bot.systems.duel import router
from bot.systems.duel.deadline import deadlines_forever
from bot.systems.duel.demo import DEMO
from bot.systems.duel.render import dice
from bot.systems.duel.tell import board_sync
from bot.systems.registry import ChatSystem

COMMANDS = frozenset(("fighter", "fighters", "duel", "turn", "remind", "export", "undo"))


def title() -> str:
    return _("Forum duel")


def help_text() -> str:
    return _(
        "<b>Forum duel</b>\n"
        "/fighter — save a fighter (a text block: «Атака 2, Блок 1, Уклонение 0, Урон d8, "
        "ХП 24, Броня 1»), /fighters — the game's fighters\n"
        "/duel A против B — the GM starts a duel in this topic\n"
        "/turn — the submission form in the DM; /remind — the GM reminds the fighters\n"
        "/duel срок 24ч — the GM gives each turn a deadline (/duel срок: the choices)\n"
        "/duel правила — the GM chooses how the open places of the rules are read\n"
        "/app дуэль — the duel in the Mini App\n"
        "/export — the whole duel as text; /undo — the GM takes back the last step"
    )


def rolls_help() -> str:
    return _(
        "<code>/d +2</code> — duel check: d10 + modifier, a natural 10 or 1 is critical; "
        "<code>/d +1 трюк</code> — a trick (6+)"
    )


def rolls_menu() -> list[tuple[str, str]]:
    return [("d", _("Duel check: /d +2"))]


def menu() -> list[tuple[str, str]]:
    return [("duel", _("start a duel")), ("turn", _("the turn's form in the DM"))]


def screen_names() -> dict[str, str]:
    return {"duel": _("the duel board"), "fighters": _("the fighters")}


def routers() -> list[Router]:
    return [router.make_router()]


CHAT = ChatSystem(
    code="duel",
    aliases=("дуэль", "дуэли"),
    dice=dice.TEXTS,
    title=title,
    routers=routers,
    commands=COMMANDS,
    help=help_text,
    menu=menu,
    rolls_help=rolls_help,
    rolls_menu=rolls_menu,
    # the tabs of webapp/static/app/systems/duel/index.js
    app_screens={"дуэль": "duel", "duel": "duel", "бойцы": "fighters", "fighters": "fighters"},
    screen_names=screen_names,
    board_sync=board_sync,
    demo=DEMO,
    background=deadlines_forever,
)
