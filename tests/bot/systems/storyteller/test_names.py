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
    wrong = said(await table.say(BORIS, "/attack Ольга Бнадит"))
    assert "нет участника «Бнадит»" in wrong and "Бандит 1" in wrong and "Бандит 2" in wrong
    arms = said(await table.say(BORIS, "/attack Ольга Бандит 1 сабля"))
    assert "нет оружия «сабля»" in arms and "Меч, Кулак" in arms, arms
    # «мечь» is her sword: the attack goes to the GM's review
    feed = await table.say(BORIS, "/attack Ольгой Бандит 1 мечь", [2, 2, 2])
    assert "ведущий" in said(feed).lower(), said(feed)
    # the names it may mean are buttons too: a tap adds as /add with that name would
    (refusal,) = unknown.sent(GROUP.id)
    assert [b["text"] for b in refusal.buttons()] == ["➕ Бандит", "➕ Ольга Крылова"]
    tapped = await table.press(ALICE, refusal, "Бандит")
    assert "➕ <b>Бандит</b> в бою" in "\n".join(c.text for c in tapped.sent(GROUP.id))
    assert [c.method for c in tapped.calls if c.method == "editMessageReplyMarkup"]
