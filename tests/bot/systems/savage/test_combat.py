"""A SWADE fight played through the fake Bot API (issue 3, «In chat»): the scripted
three-round fight of tests/engine/savage/test_fight.py (seed 000), typed as chat commands
and button presses, with refusals, the board kept in one message, undo and a restart."""

from __future__ import annotations

import itertools
from typing import Any

from aiogram import Bot, Dispatcher

from bot.app import build_dispatcher
from bot.miniapp_hooks import ChatHooks
from engine import savage
from engine.dice.rng import ScriptedRng
from engine.services import find_game
from engine.services.notify import Notifier, origin, using
from engine.services.savage import current_encounter, encounter_command
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.engine.savage.helpers import stack_faces
from tests.support.fake_botapi import ApiCall, FakeBotAPI
from tests.support.telegram import Feed, TelegramDriver

ICHIGO = (
    "Ичиго (Дикий) Ловкость d8, Смекалка d6, Дух d8, Сила d10, Выносливость d8; "
    "Драка d10, Атлетика d8; Защита 7, Стойкость 8 (2); Бенни 3; Черты: Хладнокровие"
)
RUKIA = (
    "Рукия (Дикая) Ловкость d8, Смекалка d8, Дух d8, Сила d6, Выносливость d6; "
    "Драка d8, Стрельба d8, Атлетика d8, Провокация d8; Защита 6, Стойкость 5; Бенни 2; "
    "Черты: Быстрая"
)
ORIHIME = "Орихиме (Дикая) Дух d10, Выносливость d6; Лечение d8, Драка d4; Бенни 1"
GRIMMJOW = (
    "Гриммджо (Дикий) Ловкость d10, Смекалка d6, Дух d8, Сила d12, Выносливость d10; "
    "Драка d12, Атлетика d10; Защита 8, Стойкость 9 (1); Бенни 0"
)
HOLLOW = "Пустой (Статист) Дух d4, Сила d8; Драка d6; Защита 5, Стойкость 7; Черты: Стойкий"
BOARD_TITLE = "⚔️ <b>Бой"


class Table:
    """The group at the table: sends commands, scripts the dice, finds the board."""

    def __init__(self, tg: TelegramDriver) -> None:
        self.tg = tg

    @property
    def api(self) -> FakeBotAPI:
        return self.tg.api

    async def say(self, user: Any, text: str, faces: list[int] | None = None) -> Feed:
        if faces is not None:
            self.tg.dp["rng"] = ScriptedRng(faces)
        feed = await self.tg.send(user, GROUP, text)
        self._check_used(faces)
        return feed

    async def press(
        self, user: Any, call: ApiCall, label: str, faces: list[int] | None = None
    ) -> Feed:
        if faces is not None:
            self.tg.dp["rng"] = ScriptedRng(faces)
        index = next(i for i, b in enumerate(call.buttons()) if label in b["text"])
        feed = await self.tg.press(user, call, index)
        self._check_used(faces)
        return feed

    def _check_used(self, faces: list[int] | None) -> None:
        rng = self.tg.dp["rng"]
        if faces is not None:
            assert rng.remaining == 0, f"{rng.remaining} scripted faces unused"

    async def shuffle(self, *top: str) -> list[int]:
        """Faces that stack the next deal's reshuffle (the pile, discards and cards in play)."""
        game = await find_game(GROUP.id, None)
        assert game is not None
        view = await current_encounter(game.id)
        assert view is not None
        deck = view.state.deck
        in_play = tuple(c.card for c in view.state.combatants if c.card is not None)
        return stack_faces(deck.draw + deck.discard + in_play, top)

    async def state(self) -> Any:
        game = await find_game(GROUP.id, None)
        assert game is not None
        view = await current_encounter(game.id)
        assert view is not None
        return view

    def board(self) -> ApiCall:
        """The latest version of the initiative board (sent or edited)."""
        calls = [
            c
            for c in self.api.calls
            if c.method in ("sendMessage", "editMessageText")
            and c.text.startswith(BOARD_TITLE)
            and c.result is not None
        ]
        return calls[-1]


def text_of(feed: Feed) -> str:
    return "\n".join(c.text for c in feed.sent())


def board_edits(feed: Feed) -> list[ApiCall]:
    return [
        c for c in feed.calls if c.method == "editMessageText" and c.text.startswith(BOARD_TITLE)
    ]


async def set_up_table(table: Table) -> None:
    """Alice is the GM; Boris plays Ichigo, Vera plays Rukia and Orihime."""
    await table.say(ALICE, "/newgame дикий Пустые земли")
    await table.say(BORIS, "/join")
    await table.say(VERA, "/join")
    saved = text_of(await table.say(BORIS, "/char " + ICHIGO))
    assert "Сохранено: <b>Ичиго</b>" in saved
    await table.say(VERA, "/char " + RUKIA)
    await table.say(VERA, "/char " + ORIHIME)
    await table.say(ALICE, "/char " + HOLLOW)


async def test_three_round_fight_in_chat(tg: TelegramDriver, dp: Dispatcher, bot: Any) -> None:
    table = Table(tg)
    await set_up_table(table)

    started = await table.say(ALICE, "/fight")
    assert "Бой начинается" in text_of(started)
    board = table.board()
    board_id = board.result["message_id"]
    for name in ("Ичиго", "Рукия", "Орихиме"):
        assert "в бою" in text_of(await table.say(ALICE, f"/add {name}"))
    added = text_of(await table.say(ALICE, "/add " + GRIMMJOW))
    assert "Гриммджо в бою" in added
    group = text_of(await table.say(ALICE, "/add Пустой ×2"))
    assert "Пустой ×2 в бою: Пустой 1, Пустой 2" in group

    # ---- Round 1 (seed 000 lines 5-15): Level Headed, Quick redraw to the red Joker ----
    faces = await table.shuffle("3C", "QH", "4D", "JokerR", "9S", "KS", "2H")
    dealt = await table.say(ALICE, "/next", faces)
    text = text_of(dealt)
    assert "Ичиго (Хладнокровие): 3♣ Q♥ → Q♥" in text  # a Level Headed draw, briefly
    assert "🃏 ДЖОКЕР — Рукия: +2" in text  # Quick redrew her 4♦ to the Joker: announced
    assert text.count("🃏") == 1  # 🃏 marks only the Joker
    assert "Ход: <b>Рукия</b>" in text
    assert f'<a href="tg://user?id={VERA.id}">Вера</a>' in text  # the owner is mentioned
    # The board is edited in place, never posted again.
    assert [c.params["message_id"] for c in board_edits(dealt)] == [board_id]
    assert not [c for c in dealt.sent() if c.text.startswith(BOARD_TITLE)]
    board = table.board().text
    assert "▶️ 🃏 Рукия" in board and "Q♥ Ичиго" in board and "🎲3" in board

    # A Test with the Joker's +2 shown (lines 14, 41-43): a raise Shakes Grimmjow.
    test = text_of(await table.say(VERA, "/test Рукия Гриммджо провокация", [8, 5, 2, 2, 3]))
    assert "+2 Джокер" in test and "Гриммджо в Шоке" in test
    assert "Гриммджо: состояние «Отвлечён»" in test

    # Somebody else's character, and a GM command from a player: Russian refusals.
    refused = text_of(await table.say(VERA, "/attack Ичиго Гриммджо"))
    assert refused == "Это не ваш персонаж: действовать можно только за своих."
    assert text_of(await table.say(BORIS, "/deal")) == "Это может только ведущий."

    spirit = text_of(await table.say(ALICE, "/next", [3, 2]))  # Grimmjow: Spirit fails at −2
    assert "−2 Отвлечён" in spirit and "только свободные действия" in spirit
    turn = text_of(await table.say(ALICE, "/next"))
    assert "Ход: <b>Ичиго</b>" in turn and f"tg://user?id={BORIS.id}" in turn

    # A multi-action turn (lines 27-29): −2 on both attacks; Shaken on Shaken is a Wound.
    assert "заявляет 2 действия" in text_of(await table.say(BORIS, "/actions 2"))
    hit = text_of(await table.say(BORIS, "/attack Гриммджо", [10, 3, 1, 6, 4]))
    assert "d10=10💥+3=13" in hit and "−2 несколько действий" in hit
    assert "Гриммджо получает 1 Рану" in hit
    second = text_of(await table.say(BORIS, "/attack Пустой 1", [7, 1, 3, 4]))
    assert "Пустой 1 в Шоке" in second

    # Support (lines 34-37): a raise +2 then a success +1.
    await table.say(ALICE, "/next")
    await table.say(VERA, "/actions 2 Орихиме")
    support = "/support Орихиме Ичиго лечение для драка"
    assert "Поддержка +2" in text_of(await table.say(VERA, support, [8, 4, 1]))
    assert "Поддержка +3" in text_of(await table.say(VERA, support, [7, 6, 1]))
    await table.say(ALICE, "/next", [2])  # the Shaken Hollow fails its Spirit roll

    # ---- Round 2: a Joker was dealt, so the deck is reshuffled (line 15) ----
    top = ["5C", "8D", "10S", "7H", "JS", "6D", "3S", "QD", "4C", "KH", "2S"]
    round2 = text_of(await table.say(ALICE, "/next", [*await table.shuffle(*top), 6, 1]))
    assert "перемешивается" in round2 and "Раунд 2" in round2

    # Wild Attack (line 53): +2, then Vulnerable; two Wounds wait for Ichigo's Soak.
    wild = "/attack Гриммджо Ичиго сил+к8 безрассудная"
    attack = text_of(await table.say(ALICE, wild, [11, 2, 7, 5, 3]))
    assert "+2 Безрассудная атака" in attack and "Гриммджо: состояние «Уязвим»" in attack
    assert "2 Раны ждут" in attack
    # Only Ichigo's player may Soak: a toast for Vera, the button works for Boris.
    refusal = await table.press(VERA, table.board(), "Поглотить")
    (answer,) = [c for c in refusal.calls if c.method == "answerCallbackQuery"]
    assert answer.params["text"].startswith("Это не ваш персонаж")
    soak = text_of(await table.press(BORIS, table.board(), "Поглотить", [8, 3, 2]))
    assert "все Раны поглощены" in soak  # lines 117-119

    await table.say(ALICE, "/next")
    capped = text_of(await table.say(VERA, "/support Рукия Ичиго драка для драка", [6, 6, 2]))
    assert "Поддержка +4" in capped  # the cap (line 36)
    await table.say(ALICE, "/next")
    assert "Ичиго уходит в Ожидание" in text_of(await table.say(BORIS, "/hold"))
    await table.say(ALICE, "/next", [1])
    hardy = text_of(await table.say(ALICE, "/hit Пустой 1 8"))  # Hardy: no Wound (87-88)
    assert "Рану" not in hardy

    # ---- Round 3: Hold carried over; the interrupt is opposed Athletics (line 20) ----
    await table.say(ALICE, "/next")
    board = table.board().text
    assert "⏸ Ичиго" in board and "(в Ожидании)" in board
    interrupt = text_of(await table.say(BORIS, "/interrupt", [7, 3, 4, 2]))
    # both rollers named with their totals (issue 12, item 5)
    assert "Ичиго: Атлетика <b>7</b> — Гриммджо: <b>3</b> → первым действует Ичиго" in interrupt
    waiting = [line for line in table.board().text.splitlines() if "Гриммджо" in line]
    assert waiting[0].startswith("⏳ ")  # his interrupted turn goes on later: not «✓»
    blow = "/attack Гриммджо"
    faces3 = [6, 1, 10, 2, 6, 1, 4, 2, 4, 3, 3, 5]
    finished = text_of(await table.say(BORIS, blow, faces3))
    assert "+4 Поддержка +2 Уязвим" in finished
    assert "Гриммджо теряет дееспособность и истекает кровью" in finished
    await table.say(ALICE, "/next")
    await table.say(ALICE, "/next")
    shot = "/attack Рукия Пустой 2 стрельба 3d6 средняя"
    out = text_of(await table.say(VERA, shot, [7, 2, 4, 4, 3]))
    assert "−2 дальность" in out and "Пустой 2 выбывает из боя" in out  # line 75
    view = await table.state()
    assert view.state.character("pustoy-2").status.out

    # /undo takes the shot back.
    undone = text_of(await table.say(ALICE, "/undo"))  # says what was undone
    assert undone.startswith("↩️ Отменено: 🎲 Рукия — атака, Стрельба → Пустой 2")
    view = await table.state()
    assert not view.state.character("pustoy-2").status.out
    assert view.state.current == "rukiya"

    # ---- A restart in the middle of the round: a new dispatcher over the same database ----
    settings = dp["settings"]
    restarted = TelegramDriver(build_dispatcher(settings, i18n=dp["i18n"]), bot, tg.api)
    restarted._update_ids = itertools.count(90_000)  # Telegram's update ids go on
    table2 = Table(restarted)
    after = await table2.say(ALICE, "/next")
    assert "Ход: <b>Орихиме</b>" in text_of(after)
    assert [c.params["message_id"] for c in board_edits(after)] == [board_id]


def test_every_combat_and_chase_error_code_has_a_russian_sentence(i18n: Any) -> None:
    from bot.i18n import translator
    from bot.systems.savage.render.rule_errors import chase_error_text, combat_error_text
    from engine.savage import ERROR_CODES as COMBAT_CODES
    from engine.savage.chase import ERROR_CODES as CHASE_CODES

    params = {"id": "x", "max": 4, "min": 1, "declared": 3, "participant": "Ичиго", "left": 2}
    with translator("ru", i18n):
        fallback = combat_error_text("no_such_code", {})
        for codes, render in ((COMBAT_CODES, combat_error_text), (CHASE_CODES, chase_error_text)):
            seen = set()
            for code in codes:
                text = render(code, params)
                assert text != fallback, code
                assert any("а" <= ch <= "я" for ch in text.lower()), (code, text)
                assert "{" not in text, (code, text)
                seen.add(text)
            assert len(seen) == len(codes)


async def test_a_deleted_board_is_posted_again(tg: TelegramDriver, bot: Any) -> None:
    """An edit refused with «message to edit not found» (someone deleted the board): the
    bot sends a new board and edits that one from then on."""
    from aiogram.exceptions import TelegramBadRequest
    from aiogram.methods import EditMessageText

    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    old_id = table.board().result["message_id"]
    deleted = {old_id}

    async def refuse_deleted(make_request: Any, bot: Any, method: Any) -> Any:
        if isinstance(method, EditMessageText) and method.message_id in deleted:
            raise TelegramBadRequest(method, "Bad Request: message to edit not found")
        return await make_request(bot, method)

    bot.session.middleware(refuse_deleted)
    feed = await table.say(ALICE, "/add Ичиго")
    boards = [c for c in feed.sent() if c.text.startswith(BOARD_TITLE)]
    assert len(boards) == 1 and boards[0].result["message_id"] != old_id
    edited = await table.say(ALICE, "/add Рукия")
    assert [c.params["message_id"] for c in board_edits(edited)] == [boards[0].result["message_id"]]


async def test_an_npcs_turn_is_on_the_board_and_a_tap_to_it_posts_nothing(
    tg: TelegramDriver,
) -> None:
    """An NPC's turn pings no one (issue 29: a step of two calls, the post and the board's
    edit, is one): its buttons are the board's; «Дальше» pressed on the board posts nothing
    — the board, edited, shows whose turn it is; a typed /next is still answered. A
    player's turn keeps its ping and its buttons."""
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    for name in ("Ичиго", "Пустой", GRIMMJOW):
        await table.say(ALICE, f"/add {name}")
    # Ichigo (Level Headed: the better of two), then the Hollow, then Grimmjow.
    dealt = await table.say(ALICE, "/next", await table.shuffle("KS", "QS", "5H", "2C"))
    (ping,) = dealt.sent(GROUP.id)
    assert "Ход: <b>Ичиго</b>" in ping.text and f"tg://user?id={BORIS.id}" in ping.text
    assert "⚔️ Атака" in [b["text"] for b in ping.buttons()]
    assert "⚔️ Атака" not in [b["text"] for b in table.board().buttons()]

    tapped = await table.press(ALICE, table.board(), "Дальше")
    assert tapped.sent(GROUP.id) == []
    (edit,) = board_edits(tapped)
    assert "<b>▶️ 5♥ Пустой</b>" in edit.text
    assert "⚔️ Атака" in [b["text"] for b in edit.buttons()]  # the GM acts from the board

    typed = await table.say(ALICE, "/next")
    (answer,) = typed.sent(GROUP.id)
    assert "Ход: <b>Гриммджо</b>" in answer.text and answer.buttons() == []
    assert "<b>▶️ 2♣ Гриммджо</b>" in table.board().text
    assert "⚔️ Атака" in [b["text"] for b in table.board().buttons()]


async def test_an_npcs_turn_passed_in_the_mini_app_posts_nothing(
    tg: TelegramDriver, bot: Bot, dp: Dispatcher
) -> None:
    """«Дальше» pressed in the Mini App when an NPC is next: as on the chat's board, only the
    board is edited (the Mini App path told «▶️ Ход» with a post of its own)."""
    table = Table(tg)
    await set_up_table(table)
    await table.say(ALICE, "/fight")
    for name in ("Ичиго", "Пустой", GRIMMJOW):
        await table.say(ALICE, f"/add {name}")
    await table.say(ALICE, "/next", await table.shuffle("KS", "QS", "5H", "2C"))
    game = await find_game(GROUP.id, None)
    assert game is not None
    hooks = ChatHooks.of(bot, dp)
    notifier = Notifier()
    notifier.subscribe(hooks.on_change)
    with using(notifier):
        mark = tg.api.mark()
        with origin("webapp"):
            await encounter_command(
                game.id, savage.NextTurn(by=ALICE.id), actor_id=ALICE.id, rng=ScriptedRng([])
            )
        await hooks.wait_idle()
    assert tg.api.sent(mark, GROUP.id) == []
    (edit,) = tg.api.since(mark, "editMessageText")
    assert "<b>▶️ 5♥ Пустой</b>" in edit.text
