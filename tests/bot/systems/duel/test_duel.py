"""The six-turn duel of tests/engine/duel/six_turns.py played through the fake Bot API: the
fighters and the duel in a forum topic, each turn submitted in the DM with the bot by
buttons only, the sealed receipts and the published posts in the topic, the GM's review in
the DM with adjustments, and every receipt the topic saw checked after publication.

Issue 26's «done when» figures are asserted here: no command typed during the six turns, no
topic message over 1,500 characters, no comment to the GM in the topic, a turn changed after
sealing keeps its dice (no re-roll), a GM-changed die shown as such, one live form per player
and every form closed once both turns are in. (The committed dice seed is checked with a
seeded duel in test_verify.py; the stop in test_stop.py; the GM who plays a fighter in
tests/webapp/systems/duel/test_api_seals.py and test_seals.py.)"""

from __future__ import annotations

import re
from typing import Any

from aiogram.filters.callback_data import CallbackData

from bot.systems.duel import draft
from bot.systems.duel.callbacks import DuelFormCallback, DuelReviewCallback
from bot.systems.duel.render.review import FIELDS
from engine.dice.rng import ScriptedRng
from engine.duel import Action, Fighter, format_sheet, propose
from engine.duel.dice import faces_of
from engine.services import duel as duels
from engine.services import find_game
from tests.bot.conftest import ALICE, BORIS, VERA
from tests.bot.test_miniapp import target_of
from tests.engine.duel.six_turns import BJORN, TAKEDA, TURNS, use_the_scripts_readings
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import TelegramDriver, TgUser, group, private

FORUM = group(-1001000000077, "Арена", forum=True)
TOPIC = 55
RECEIPT = re.compile(r"\b[0-9a-f]{64}\b")
CODE = re.compile(r"\b[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}\b")  # a receipt's short code
CHECK_LINE = re.compile(r"<code>([0-9a-f]{32}\|\{.*?\})</code>")


class Table:
    def __init__(self, tg: TelegramDriver) -> None:
        self.tg = tg
        self.forms: dict[int, ApiCall] = {}  # the latest form message of each user
        self.review: ApiCall | None = None
        self.last_send: tuple[ApiCall, str] | None = None  # the form and its «send» pressed

    async def say(self, user: TgUser, text: str, thread: int | None = TOPIC) -> list[ApiCall]:
        feed = await self.tg.send(user, FORUM, text, thread_id=thread)
        self._track(feed.calls)
        return feed.calls

    def _track(self, calls: list[ApiCall]) -> None:
        for c in calls:
            if c.method not in ("sendMessage", "editMessageText", "editMessageReplyMarkup"):
                continue
            data = [b.get("callback_data", "") for b in c.buttons()]
            if any(d.startswith("dlf:") for d in data):
                self.forms[c.chat_id or 0] = c
            if any(d.startswith("dlr:") for d in data):
                self.review = c
            elif c.chat_id == VERA.id and self.review and c.method == "editMessageText":
                self.review = c  # a review without buttons (published)

    async def press(self, user: TgUser, call: ApiCall, data: str) -> list[ApiCall]:
        index = next(i for i, b in enumerate(call.buttons()) if b.get("callback_data") == data)
        if call.method == "editMessageReplyMarkup":  # the press shows the message as it is
            call = ApiCall(call.method, call.params, {**call.result, "text": ""})
        feed = await self.tg.press(user, call, index)
        self._track(feed.calls)
        return feed.calls

    def button(self, call: ApiCall, cls: type[CallbackData], **wanted: Any) -> str:
        for b in call.buttons():
            data = b.get("callback_data", "")
            try:
                cb = cls.unpack(data)
            except (TypeError, ValueError):
                continue
            if all(getattr(cb, k) == v for k, v in wanted.items()):
                return data
        raise AssertionError(f"no button {wanted} in {[b['text'] for b in call.buttons()]}")

    async def submit(
        self, user: TgUser, fighter: Fighter, actions: list[Action], faces: list[int]
    ) -> None:
        """Declare `actions` by the form's buttons alone, then send with scripted dice."""
        cls = fighter.fighter_class
        for action in actions:
            form = self.forms[user.id]
            op = "+" + draft.encode_action(action, cls)
            await self.press(user, form, self.button(form, DuelFormCallback, op=op))
        form = self.forms[user.id]
        ops = [DuelFormCallback.unpack(d).op for d in _data(form) if d.startswith("dlf:")]
        if "next" in ops:  # the form goes to the AP by itself once nothing more is allowed
            await self.press(user, form, self.button(form, DuelFormCallback, op="next"))
        form = self.forms[user.id]
        self.tg.dp["rng"] = ScriptedRng(faces)
        self.last_send = (form, self.button(form, DuelFormCallback, op="send"))
        await self.press(user, *self.last_send)
        assert self.tg.dp["rng"].remaining == 0


def closed(calls: list[ApiCall], form: ApiCall) -> ApiCall:
    """The edit that closed `form` (its message, no buttons left)."""
    message = form.result["message_id"]
    [edit] = [
        c for c in calls
        if c.method == "editMessageText" and c.chat_id == form.chat_id
        and c.params.get("message_id") == message and "🔒" in c.text
    ]  # fmt: skip
    assert edit.buttons() == []
    return edit


def live_forms(calls: list[ApiCall], chat_id: int) -> int:
    """How many messages of the DM with `chat_id` hold a form's buttons, as Telegram shows
    them after `calls` (each message's last send or edit)."""
    shown: dict[int, bool] = {}
    for c in calls:
        if c.chat_id != chat_id or not isinstance(c.result, dict):
            continue
        if c.method in ("sendMessage", "editMessageText", "editMessageReplyMarkup"):
            data = [b.get("callback_data", "") for b in c.buttons()]
            shown[c.result["message_id"]] = any(d.startswith("dlf:") for d in data)
    return sum(shown.values())


def _data(call: ApiCall) -> list[str]:
    return [b.get("callback_data", "") for b in call.buttons()]


def topic_texts(calls: list[ApiCall]) -> list[str]:
    return [
        c.text
        for c in calls
        if c.method == "sendMessage" and c.chat_id == FORUM.id
        and c.params.get("message_thread_id") == TOPIC
    ]  # fmt: skip


async def arena(tg: TelegramDriver) -> Table:
    """Вера's duel game in the forum: Алиса's Бьорн and Борис's Такеда saved, no duel yet
    (everyone has started the bot)."""
    table = Table(tg)
    # scripted dice: a source of faces only commits no turn seed (test_dice_seed.py has one)
    tg.dp["rng"] = ScriptedRng([])
    for user in (VERA, ALICE, BORIS):  # each has started the bot
        await tg.send(user, private(user), "/start")
    await table.say(VERA, "/newgame дуэль Арена", thread=None)
    for user in (ALICE, BORIS):
        await table.say(user, "/join", thread=None)
    await table.say(ALICE, "/fighter " + format_sheet(BJORN))
    await table.say(BORIS, "/fighter " + format_sheet(TAKEDA))
    return table


async def test_the_six_turn_duel_in_a_forum_topic(tg: TelegramDriver) -> None:
    table = await arena(tg)
    game = await find_game(FORUM.id, None)
    assert game is not None
    await use_the_scripts_readings(game.id, VERA.id)
    start = await table.say(VERA, "/duel Бьорн против Такеда")
    (opening,) = topic_texts(start)
    assert "Бьорн" in opening and "Такеда" in opening
    assert {ALICE.id, BORIS.id} <= set(table.forms)  # the forms came to the DMs
    game = await find_game(FORUM.id, None)
    assert game is not None

    mark = tg.api.mark()
    typed = len(tg.updates)
    for n, (a, fa, b, fb) in enumerate(TURNS, start=1):
        before = tg.api.mark()
        forms = {u: table.forms[u] for u in (ALICE.id, BORIS.id)}  # the turn's forms
        if n == 1:  # «Комментарий мастеру»: a reply to the form, sealed with the turn
            form = table.forms[ALICE.id].result
            feed = await tg.send(ALICE, private(ALICE), "целюсь в левый бок", reply_to=form)
            table._track(feed.calls)
            assert "💬 Комментарий мастеру: целюсь в левый бок" in table.forms[ALICE.id].text
        await table.submit(ALICE, BJORN, a, fa)
        sealed = topic_texts(tg.api.since(before))
        # the short code of 12 characters, not the whole hash (revealed with the turn)
        assert len(sealed) == 1 and CODE.search(sealed[0]) and not RECEIPT.search(sealed[0])
        # who and when only: the receipt line names the fighter, nothing of the actions
        shown = CODE.sub("", sealed[0])  # the code itself may spell «d10» in hex
        assert "Бьорн" in shown and "Такеда" not in shown and "d10" not in shown
        # nothing of Бьорн's turn reaches Борис before the turn is published
        dms = [c.text for c in tg.api.since(before) if c.chat_id == BORIS.id]
        assert not any("Бьорн:" in t for t in dms)
        if n == 2:  # Алиса changes her sealed turn: the change draws no die anew
            sent = table.forms[ALICE.id]
            await table.press(ALICE, sent, table.button(sent, DuelFormCallback, op="reset"))
            await table.submit(ALICE, BJORN, a, [])  # no faces: a die drawn anew would fail
            view = await duels.current_duel(game.id, TOPIC)
            assert view is not None
            (first,) = [s.submission for s in view.state.replaced]
            (now,) = [s.submission for s in view.state.pending]
            assert list(faces_of(now)) == list(faces_of(first))
        await table.submit(BORIS, TAKEDA, b, fb)
        assert table.review is not None and "Бьорн" in table.review.text
        # both turns are in: every form of the turn is closed, none is live
        for user, form in forms.items():
            closed(tg.api.since(before), form)
            assert live_forms(tg.api.calls, user) == 0
        if n == 1:
            assert "целюсь в левый бок" in table.review.text
            assert not any("целюсь" in c.text for c in tg.api.calls if c.chat_id == BORIS.id)
        if n == 6:  # the GM sets the second d10 of Такеда's full dodge (6) to 5
            for wanted in (
                {"op": "roll", "fighter": "b", "action": 1, "check": 1},
                {"op": "pick", "value": 5},
                {"op": "why", "reason": 1},
            ):
                review = table.review
                await table.press(VERA, review, table.button(review, DuelReviewCallback, **wanted))
            assert "на втором d10 выпало 5 (было 6)" in table.review.text
        if n == 6:  # the GM changes Бьорн's HP after the turn, with a reason
            view = await duels.current_duel(game.id, TOPIC)
            assert view is not None
            hp = propose(view.state).after_of("a").hp
            for wanted in ({"op": "val", "fighter": "a"}, {"op": "pick", "value": hp + 1}):
                review = table.review
                await table.press(VERA, review, table.button(review, DuelReviewCallback, **wanted))
            review = table.review
            await table.press(VERA, review, table.button(review, DuelReviewCallback, op="why"))
            assert table.review.method == "editMessageText" and "✏️" in table.review.text
        publish = table.button(table.review, DuelReviewCallback, op="publish")
        review = table.review
        posted = await table.press(VERA, review, publish)
        post = topic_texts(posted)
        assert post and f"⚔️ Ход {n}" in post[0]
        if n == 2:
            assert "✏️ <b>Бьорн</b>: ход изменён до раскрытия (1 раз)." in post[0]
        if n == 6:
            assert f"ХП — {hp + 1} (было {hp})" in post[0] and "по ситуации в бою" in post[0]
            assert "на втором d10 выпало 5 (было 6): ошибка в броске" in post[0]
        else:  # the next turn's forms: one live form per player
            assert live_forms(tg.api.calls, ALICE.id) == live_forms(tg.api.calls, BORIS.id) == 1
        # a second tap on the same button publishes nothing
        again = await table.press(VERA, review, publish)
        assert topic_texts(again) == []
        assert any(c.method == "answerCallbackQuery" for c in again)

    view = await duels.current_duel(game.id, TOPIC)
    assert view is not None and view.state.over and len(view.state.history) == 6
    assert view.state.fighter("a").hp == _hp_after_adjustment(view)
    assert tg.typed_commands(typed) == []  # taps and one reply: no command typed in six turns
    thread = topic_texts(tg.api.since(mark))
    receipts = {r for t in thread if "🔒" in t for r in CODE.findall(t)}
    assert len(receipts) == 13  # two per turn, and the changed turn's first
    # every receipt the topic saw is one short line of its published turn that checks out
    # (issue 26 item 3): no hashed text, no JSON, no comment to the GM in the topic
    checked = {m for t in thread for m in re.findall(r"квитанция (\S+) ✓ сходится", t)}
    assert receipts <= checked
    assert not any(CHECK_LINE.search(t) or '{"' in t or "printf" in t for t in thread)
    assert not any("целюсь" in t for t in thread)
    longest = max(len(t) for t in thread)  # 1,239 characters, links and HTML included
    assert longest <= 1500, longest

    export = await table.say(ALICE, "/export")
    assert [c.method for c in export if c.method == "sendDocument"] == ["sendDocument"]


def _hp_after_adjustment(view: Any) -> int:
    last = view.state.history[-1].proposal
    (note,) = [a for a in last.adjustments if a.code == "adjusted_value"]
    return int(note.params["value"])


async def test_app_duel_opens_the_duel_screen_of_the_game(tg: TelegramDriver) -> None:
    await tg.send(VERA, FORUM, "/newgame дуэль Арена")
    game = await find_game(FORUM.id, None)
    assert game is not None
    for word, screen in (("дуэль", "duel"), ("бойцы", "fighters")):
        feed = await tg.send(ALICE, FORUM, f"/app {word}", thread_id=TOPIC)
        [reply] = feed.sent(FORUM.id)
        assert reply.params.get("message_thread_id") == TOPIC
        [button] = [b for b in reply.buttons() if "url" in b]
        target = target_of(button["url"])
        assert (target.game_id, target.screen) == (game.id, screen)
    assert "доска дуэли" in reply.text or "бойцы" in reply.text
    usage = (await tg.send(ALICE, FORUM, "/app куда-нибудь", thread_id=TOPIC)).only_text()
    assert "<code>/app дуэль</code>" in usage


async def _one_turn_in(tg: TelegramDriver) -> tuple[Table, int]:
    """Вера's duel game in the topic, Бьорн against Такеда, both turns of turn 1 sealed."""
    table = await arena(tg)
    await table.say(VERA, "/duel Бьорн против Такеда")
    a, fa, b, fb = TURNS[0]
    await table.submit(ALICE, BJORN, a, fa)
    await table.submit(BORIS, TAKEDA, b, fb)
    game = await find_game(FORUM.id, None)
    assert game is not None and table.review is not None
    return table, game.id


async def test_the_gm_changes_any_die_and_value_by_buttons_with_own_reasons(
    tg: TelegramDriver,
) -> None:
    table, game_id = await _one_turn_in(tg)
    view = await duels.current_duel(game_id, TOPIC)
    assert view is not None
    before = propose(view.state)

    async def press(**wanted: Any) -> None:
        review = table.review
        assert review is not None
        await table.press(VERA, review, table.button(review, DuelReviewCallback, **wanted))

    # Такеда's first d10 (a 7) shows a 1, «ошибка в броске»: the turn is resolved again
    await press(op="roll", fighter="b", action=0)
    await press(op="pick", value=1)
    assert "<b>Такеда</b>, действие 1: на d10 выпало 1" in table.review.text
    await press(op="why", reason=1)
    # Бьорн's SP, then Такеда knocked down, each with the GM's own reason (a reply)
    sp = before.after_of("a").sp
    reasons = {"sp": "сбил дыхание", "standing_up": "поскользнулся на крови"}
    for fighter, field, value in (("a", "sp", sp - 2), ("b", "standing_up", 1)):
        await press(op="fields", fighter=fighter)
        labels = [b["text"] for b in table.review.buttons()]
        assert any(t.startswith("СП: ") for t in labels) and "сбит с ног: нет" in labels
        await press(op="val", field=FIELDS.index(field))
        await press(op="pick", value=value)
        assert "ответьте на это сообщение" in table.review.text
        asked = table.review
        feed = await tg.send(VERA, private(VERA), reasons[field], reply_to=asked.result)
        assert any("причиной" in c.text for c in feed.sent(VERA.id))
        table._track(feed.calls)
    view = await duels.current_duel(game_id, TOPIC)
    assert view is not None
    changed = propose(view.state)
    assert changed.after_of("a").sp == sp - 2 and changed.after_of("b").standing_up
    assert [a.params["reason"] for a in view.state.adjustments] == [
        "ошибка в броске", "сбил дыхание", "поскользнулся на крови",
    ]  # fmt: skip
    posted = await table.press(
        VERA, table.review, table.button(table.review, DuelReviewCallback, op="publish")
    )
    post = topic_texts(posted)[0]
    assert "на d10 выпало 1 (было 7): ошибка в броске" in post
    assert f"СП — {sp - 2} (было {sp}): сбил дыхание" in post
    assert "поскользнулся на крови" in post


async def test_a_stale_form_or_review_is_refused_whatever_the_turn(tg: TelegramDriver) -> None:
    table, game_id = await _one_turn_in(tg)
    old_form = table.forms[ALICE.id]  # the sent form of turn 1: «✏️ Change the turn»
    review = table.review
    assert review is not None
    publish = table.button(review, DuelReviewCallback, op="publish")
    await table.press(VERA, review, publish)
    view = await duels.current_duel(game_id, TOPIC)
    assert view is not None and view.state.turn == 2
    for user, call, data in (
        (ALICE, old_form, table.button(old_form, DuelFormCallback, op="reset")),
        (VERA, review, publish),
    ):
        feed = await tg.press(user, call, _data(call).index(data))
        [alert] = [c for c in feed.calls if c.method == "answerCallbackQuery"]
        assert alert.params.get("show_alert") and "устарел" in alert.params["text"]
        assert not [c for c in feed.calls if c.method.startswith("edit")]
    after = await duels.current_duel(game_id, TOPIC)
    assert after is not None and after.seq == view.seq  # nothing was written
