"""Names in a Storyteller game's chat (engine/services/names.py): /char and /npc keep a name
without its invisible characters and refuse one that looks just like another of the game; the
fight's /add of a name too long for the library is refused in Russian."""

from __future__ import annotations

from engine.services import find_game
from engine.services.storyteller import list_characters
from tests.bot.conftest import ALICE, BORIS, GROUP
from tests.bot.systems.storyteller.test_fight import Table, said
from tests.support.telegram import TelegramDriver

THUG = "Имя: {name}\nАтрибуты: Ловкость 2, Выносливость 2\nСпособности: Рукопашный бой 2"


async def test_names_are_kept_clean_and_look_alikes_refused(tg: TelegramDriver) -> None:
    table = Table(tg)
    await table.say(ALICE, "/newgame сказитель Ночной город")
    await table.say(BORIS, "/join")
    saved = said(await table.say(ALICE, "/npc " + THUG.format(name="Бан\u200bдит")))
    assert "Шаблон NPC сохранён: <b>Бандит</b>" in saved
    latin = said(await table.say(ALICE, "/npc " + THUG.format(name="Бaндит")))  # a Latin «a»
    assert latin.startswith("Имя «Бaндит» выглядит точно как «Бандит»")
    blank = said(await table.say(BORIS, "/char " + THUG.format(name="\u202e\u200b")))
    assert blank == "Имя пустое: в нём нет ни одного видимого символа."
    game = await find_game(GROUP.id, None)
    assert game is not None
    assert [r.name for r in await list_characters(game.id)] == ["Бандит"]

    await table.say(ALICE, "/fight")
    refused = said(await table.say(ALICE, "/add " + "Я" * 300))
    assert refused == "Имя длиннее 255 символов: сократите его."
    added = said(await table.say(ALICE, "/add Бан\u200bдит"))
    assert "Бандит" in added and "Что-то пошло не так" not in added


async def test_names_as_people_type_them(tg: TelegramDriver) -> None:
    """Issue 25, item 5: a one-letter typo, a case form, the start of a name; a refusal
    names the closest fighters, characters or weapons — /add's as buttons too."""
    table = Table(tg)
    await table.say(ALICE, "/newgame сказитель Ночной город")
    await table.say(BORIS, "/join")
    await table.say(ALICE, "/npc " + THUG.format(name="Бандит"))
    await table.say(BORIS, "/char Имя: Ольга Крылова\nАтрибуты: Ловкость 3\nОружие: Меч")
    await table.say(ALICE, "/fight")
    assert "Ольга Крылова" in said(await table.say(ALICE, "/add ольга"))
    added = said(await table.say(ALICE, "/add Бнадит ×2"))
    assert "Бандит 1" in added and "Бандит 2" in added
    unknown = await table.say(ALICE, "/add Ксюша")
    assert "Нет персонажа или шаблона «Ксюша»" in said(unknown)
    await table.say(ALICE, "/init", [5, 5, 5])
    wrong_feed = await table.say(BORIS, "/attack Ольга Бнадит")
    wrong = said(wrong_feed)
    assert "нет участника «Бнадит»" in wrong and "Бандит 1" in wrong and "Бандит 2" in wrong
    # the fighters it may mean are buttons: a tap edits the refusal into the attack picker
    # with attacker and target chosen (no new message)
    (wrong_call,) = wrong_feed.sent(GROUP.id)
    assert [b["text"] for b in wrong_call.buttons()] == ["Бандит 1", "Бандит 2"]
    picked = await table.press(BORIS, wrong_call, "Бандит 2")
    assert picked.sent(GROUP.id) == []
    [picker] = [c for c in picked.calls if c.method == "editMessageText"]
    assert picker.params["message_id"] == wrong_call.result["message_id"]
    assert "<b>Ольга Крылова</b> → <b>Бандит 2</b>" in picker.text, picker.text
    assert [b["text"] for b in picker.buttons()][:2] == ["🗡 Меч", "🗡 Кулак"]
    arms_feed = await table.say(BORIS, "/attack Ольга Бандит 1 сабля")
    arms = said(arms_feed)
    assert "нет оружия «сабля»" in arms and "Меч, Кулак" in arms, arms
    # her weapons are buttons too: a tap opens the picker ready to attack with it
    (arms_call,) = arms_feed.sent(GROUP.id)
    assert [b["text"] for b in arms_call.buttons()] == ["Меч", "Кулак"]
    armed = await table.press(BORIS, arms_call, "Меч")
    [ready] = [c for c in armed.calls if c.method == "editMessageText"]
    assert "<b>Бандит 1</b>, Меч" in ready.text and armed.sent(GROUP.id) == [], ready.text
    assert "⚔️ Атака" in [b["text"] for b in ready.buttons()]
    await table.press(BORIS, ready, "Отмен")  # put away: the typed attack below goes on
    # «мечь» is her sword: the attack goes to the GM's review
    feed = await table.say(BORIS, "/attack Ольгой Бандит 1 мечь", [2, 2, 2])
    assert "ведущий" in said(feed).lower(), said(feed)
    # the names it may mean are buttons too: a tap adds as /add with that name would
    (refusal,) = unknown.sent(GROUP.id)
    assert [b["text"] for b in refusal.buttons()] == ["➕ Бандит", "➕ Ольга Крылова"]
    tapped = await table.press(ALICE, refusal, "Бандит")
    assert "➕ <b>Бандит</b> в бою" in "\n".join(c.text for c in tapped.sent(GROUP.id))
    assert [c.method for c in tapped.calls if c.method == "editMessageReplyMarkup"]
