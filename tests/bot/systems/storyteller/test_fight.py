"""The Storyteller fight played through the fake Bot API: the engine's scripted fight
(tests/engine/storyteller/test_fight.py, each step citing its seed sentence) typed as chat
commands by the GM and the players, every attack reviewed by the GM in private and
published with the button; the chat's stored fight ends where the engine's does."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from aiogram import Bot

from bot.middlewares.flood import FloodControl
from bot.systems.storyteller import board as board_module
from engine.dice.rng import ScriptedRng
from engine.services import find_game
from engine.services.storyteller import current_fight
from engine.store.models import OutgoingCall
from engine.storyteller import commands as cmd
from engine.storyteller import events as ev
from engine.storyteller.combat import BLOCK, DODGE, PARRY
from engine.storyteller.fight import Fight
from engine.storyteller.sheet import format_sheet
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.engine.storyteller import test_fight as scripted
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import Feed, TelegramDriver, TgUser

BOARD = "⚔️ <b>"
CAST = (  # engine id, character, its player (None: the GM's NPC)
    ("vera", scripted.VERA, BORIS),
    ("max", scripted.MAX, VERA),
    ("boss", scripted.BOSS, None),
    ("thug1", scripted.THUG1, None),
    ("thug2", scripted.THUG2, None),
    ("thug3", scripted.THUG3, None),
)
NAMES = {fid: c.name for fid, c, _ in CAST}
PLAYERS = {fid: user for fid, _, user in CAST}
DEFENSE_WORDS = {BLOCK: "блок", DODGE: "уворот", PARRY: "парирование"}
AIM_WORDS = {"medium": "средняя", "small": "маленькая", "tiny": "крошечная"}


class Recorder(scripted.Game):
    def __init__(self) -> None:
        super().__init__()
        self.played: list[tuple[cmd.Command, list[int]]] = []

    def do(self, command: cmd.Command, *faces: list[int]) -> tuple[ev.Event, ...]:
        self.played.append((command, list(itertools.chain.from_iterable(faces))))
        return super().do(command, *faces)


class Table:
    def __init__(self, tg: TelegramDriver) -> None:
        self.tg = tg

    async def say(self, user: TgUser, text: str, faces: list[int] | None = None) -> Feed:
        self.tg.dp["rng"] = ScriptedRng(faces or [])
        feed = await self.tg.send(user, GROUP, text)
        assert self.tg.dp["rng"].remaining == 0, text
        return feed

    async def press(self, user: TgUser, call: ApiCall, label: str) -> Feed:
        self.tg.dp["rng"] = ScriptedRng([])
        index = next(i for i, b in enumerate(call.buttons()) if label in b["text"])
        return await self.tg.press(user, call, index)

    def board(self) -> ApiCall:
        calls = [
            c
            for c in self.tg.api.calls
            if c.method in ("sendMessage", "editMessageText")
            and c.text.startswith(BOARD)
            and c.chat_id == GROUP.id
        ]
        return calls[-1]

    async def fight(self) -> Fight:
        game = await find_game(GROUP.id, None)
        assert game is not None
        view = await current_fight(game.id)
        assert view is not None
        return view.state


def said(feed: Feed, chat_id: int = GROUP.id) -> str:
    return "\n".join(c.text for c in feed.sent(chat_id))


def told(feed: Feed, chat_id: int = GROUP.id) -> str:
    """What the group reads after the step: new messages and edits, the board aside (a
    published attack is its notice edited in place)."""
    return "\n".join(
        c.text
        for c in feed.calls
        if c.method in ("sendMessage", "editMessageText")
        and c.chat_id == chat_id
        and not c.text.startswith(BOARD)
    )


def typed(command: cmd.Command) -> tuple[TgUser, str]:
    """Who types the command in the chat, and how."""
    if isinstance(command, cmd.Ambush):
        return ALICE, f"/ambush {NAMES[command.attacker]} {NAMES[command.victim]}"
    if isinstance(command, cmd.StartTurn):
        return ALICE, "/init"
    simple = {cmd.Delay: "delay", cmd.Yield: "yield", cmd.EndAction: "done"}
    simple |= {cmd.FullDefense: "fulldef"}
    for cls, word in simple.items():
        if isinstance(command, cls):
            fid = command.fighter  # type: ignore[attr-defined]
            return PLAYERS[fid] or ALICE, f"/{word} {NAMES[fid]}"
    if isinstance(command, cmd.DeclareActions):
        return PLAYERS[command.fighter] or ALICE, f"/actions {command.count} " + NAMES[
            command.fighter
        ]
    assert isinstance(command, cmd.Attack), command
    words = [NAMES[command.attacker], NAMES[command.target]]
    if command.weapon:
        words.append(command.weapon)
    if command.defense:
        words.append(DEFENSE_WORDS[command.defense])
    if command.interrupt:
        words.append("прерывание" if command.interrupt == "roll" else "прерывание-очко")
    if command.situation.aim:
        words += ["прицел", AIM_WORDS[command.situation.aim]]
    return PLAYERS[command.attacker] or ALICE, "/attack " + " ".join(words)


async def set_up(table: Table, *, ask: bool = False) -> None:
    """The game, its players, the sheets and the fight; ``ask`` False: the typed commands
    name every defense, so no player is asked for one (``/options защита-время 0``)."""
    await table.say(ALICE, "/newgame сказитель Ночной город")
    await table.say(BORIS, "/join")
    await table.say(VERA, "/join")
    for _fid, character, player in CAST:
        sheet = format_sheet(character)
        feed = await table.say(player or ALICE, ("/char " if player else "/npc ") + sheet)
        assert character.name in said(feed)
    # the scripted story rolls initiative every turn (the game's option)
    await table.say(ALICE, "/options инициатива-раз нет")
    if not ask:
        await table.say(ALICE, "/options защита-время 0")
    await table.say(ALICE, "/fight")
    for _fid, character, _ in CAST:
        await table.say(ALICE, f"/add {character.name}")


async def test_the_scripted_fight_in_chat(tg: TelegramDriver) -> None:
    engine = Recorder()
    for fid, c, player in CAST:
        engine.do(cmd.AddFighter(fid, c, None if player is None else player.id))
    scripted.play(engine)
    table = Table(tg)
    await set_up(table)
    ids = {f.character.name: f.id for f in (await table.fight()).fighters}
    for command, faces in engine.played[len(CAST) :]:
        user, text = typed(command)
        feed = await table.say(user, text, faces)
        if isinstance(command, cmd.Ambush):
            # the NPC's Perception + Alertness shows what it did, never its dice
            assert "против успехов: <b>1</b>" in said(feed) and "[<b>6</b>, 2, 3]" not in said(feed)
        if not isinstance(command, cmd.Attack):
            continue
        # the table is told that the GM decides; the GM gets the dice in private
        assert "ведущий" in said(feed).lower(), said(feed)
        (review,) = feed.sent(ALICE.id)
        assert NAMES[command.attacker] in review.text
        published = await table.press(ALICE, review, "Опубликовать")
        story = told(published)
        assert not [c for c in published.sent(GROUP.id) if "Атака" in c.text]  # edited in place
        assert NAMES[command.attacker] in story and NAMES[command.target] in story
        attack_line = next(ln for ln in story.splitlines() if ln.startswith("⚔️ Атака"))
        # a hidden NPC roll never reveals its pool size; the GM's copy has the dice
        assert ("[" in attack_line) == (PLAYERS[command.attacker] is not None), attack_line
        assert "(сложность" in review.text
    fight = await table.fight()
    for fid, _c, _p in CAST:
        mine = fight.fighter(ids[NAMES[fid]]).character
        theirs = engine.state.fighter(fid).character
        assert mine == theirs, fid
    board = table.board().text
    assert "✕✕✕" in board  # Vera's three lethal levels on the public track
    assert "Бандит 2" in board


async def test_the_gm_adjusts_a_proposal_before_it_is_published(tg: TelegramDriver) -> None:
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])  # Vera 10, Max 10, …
    # Max punches Thug 2; the GM makes it harder, then publishes the changed roll
    faces = [9, 8, 7, 2, 6, 6, 6, 2, 2, 2, 2, 3, 3]  # attack, damage, soak
    feed = await table.say(VERA, "/attack Макс Бандит 2 Кулак", faces)
    (review,) = feed.sent(ALICE.id)
    harder = await table.press(ALICE, review, "Сложность +1")
    edited = [c for c in harder.calls if c.method == "editMessageText"]
    assert edited and "сложность 7" in edited[-1].text.lower()
    assert not harder.sent(GROUP.id)  # the table sees nothing of it
    published = await table.press(ALICE, edited[-1], "Опубликовать")
    story = told(published)
    assert "(сложность 7)" in story
    fight = await table.fight()
    assert fight.proposal is None
    # a published step can be undone: back to the proposal
    await table.say(ALICE, "/undo")
    assert (await table.fight()).proposal is not None


async def test_players_cannot_publish_and_a_gm_without_private_chat(tg: TelegramDriver) -> None:
    table = Table(tg)
    await set_up(table)
    tg.api.forbid(ALICE.id)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])
    feed = await table.say(VERA, "/attack Макс Бандит 2 Кулак", [2, 2, 2, 2, 2])  # a miss
    assert "/publish" in said(feed)
    refused = await table.say(VERA, "/publish")
    assert "ведущ" in said(refused).lower()
    out = await table.say(ALICE, "/publish")
    assert "Макс" in told(out) and "не достигает цели" in told(out), told(out)
    assert (await table.fight()).proposal is None


# --- the step and what it tells the chat, one transaction (issue 24, item 1) -----------------


def flood_of(bot: Bot) -> FloodControl:
    return next(m for m in bot.session.middleware if isinstance(m, FloodControl))


async def test_a_fight_step_fails_after_its_chat_calls_and_leaves_nothing(
    tg: TelegramDriver, journaled: TelegramDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/init typed and «init» tapped on the board: the turn's message is posted, then the
    board's edit is made — and the handler breaks after it. Neither the step, nor a journal
    row, nor a call reaches anyone; while the step was open its calls were journaled in it,
    not queued or sent."""
    table = Table(tg)
    await set_up(table)
    before = await table.fight()
    board = table.board()
    flood = flood_of(journaled.bot)
    seen: list[tuple[int, int, int]] = []  # rows journaled, calls queued, calls sent

    async def edit_then_break(*args: Any, **kwargs: Any) -> None:
        posts = [c for c in journaled.api.since(mark, "sendMessage") if c.chat_id == GROUP.id]
        await real_edit_or_send(*args, **kwargs)
        seen.append((await OutgoingCall.all().count(), len(flood.chats), len(posts)))
        raise RuntimeError("the handler broke after its chat calls")

    real_edit_or_send = board_module.edit_or_send
    monkeypatch.setattr(board_module, "edit_or_send", edit_then_break)
    for step in ("typed", "tapped"):
        journaled.dp["rng"] = ScriptedRng([3, 6, 3, 5, 5, 2])
        mark = journaled.api.mark()
        if step == "typed":
            await journaled.send(ALICE, GROUP, "/init")
        else:
            button = next(i for i, b in enumerate(board.buttons()) if "Инициатива" in b["text"])
            await journaled.press(ALICE, board, button)
        assert seen.pop() == (2, 0, 0), step  # the turn's post and the board's edit, held
        await asyncio.sleep(0.3)  # what a queue would have sent by now
        # only the failure's own answer: a reply to the command, an alert to the tap
        calls = [(c.method, c.text) for c in journaled.api.since(mark)]
        failed = "sendMessage" if step == "typed" else "answerCallbackQuery"
        assert calls == [(failed, "Что-то пошло не так. Попробуйте ещё раз чуть позже.")]
        assert await OutgoingCall.all().count() == 0, step
        assert await table.fight() == before, step  # no turn started


SLOW = 0.8  # seconds the fake Bot API takes to answer a message


async def test_a_gm_without_private_chat_is_told_on_the_notice_after_the_commit(
    tg: TelegramDriver, journaled: TelegramDriver
) -> None:
    """The GM's private copy of a proposal is refused once the step committed (the handler
    does not wait for the GM's chat): the group's notice says so — the sentence the GM's
    refused copy always brought — and the GM decides there."""
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])
    tg.api.forbid(ALICE.id)
    tg.api.slow_down("sendMessage", SLOW)  # Telegram takes its time: the handler does not wait
    journaled.dp["rng"] = ScriptedRng([2, 2, 2, 2, 2])
    mark = tg.api.mark()
    await journaled.send(VERA, GROUP, "/attack Макс Бандит 2 Кулак")
    returned = time.perf_counter()

    def telling() -> list[ApiCall]:  # the group's calls with the sentence
        calls = tg.api.since(mark)
        return [c for c in calls if c.chat_id == GROUP.id and "нет личного чата" in c.text]

    async with asyncio.timeout(10):
        while not telling():
            await asyncio.sleep(0.05)
    (dm,) = [c for c in tg.api.since(mark, "sendMessage") if c.chat_id == ALICE.id]
    assert dm.result is None  # refused ...
    assert dm.received + SLOW > returned  # ... after the handler was done: it did not wait
    (notice,) = [c for c in tg.api.since(mark, "sendMessage") if c.chat_id == GROUP.id]
    (edit,) = telling()  # the notice, edited once the refusal was learnt
    assert edit.method == "editMessageText"
    assert notice.result is not None and edit.params["message_id"] == notice.result["message_id"]
    assert edit.text.startswith(notice.text) and "/publish" in edit.text
    tg.api.slow_down("sendMessage", 0)
    out = await table.say(ALICE, "/publish")
    assert "не достигает цели" in told(out), told(out)
