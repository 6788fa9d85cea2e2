"""A newcomer's first ten minutes in the playground, in real headless Chromium (Debian's):
create a game as the GM, join as a player, roll openly, roll hidden as a player who never
opened the bot (the start link, then the delivery), reveal, open the Mini App as the GM and
deal a round, and see the player's board update live; and the demo tables' buttons, each
opening its own chat. Screenshots (390×844, light and dark) go to test-artifacts/playground/."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine.services import find_game
from engine.services.storyteller import current_fight, fight_command
from engine.storyteller import commands as cmd
from tests.bot.playground.conftest import GM, Served
from tests.bot.systems.storyteller.test_table import Dice
from tests.webapp.browser import ARTIFACTS
from tests.webapp.test_browser import browser  # noqa: F401 (fixture)

SHOTS = ARTIFACTS.parent / "playground"
WAIT = 15_000
PHONE = {"width": 390, "height": 844}


def problem(message: Any) -> bool:
    """A console error, except the SDK's own: in a frame, telegram-web-apps.js appends an
    empty <style> (for web.telegram.org's custom style), which the Mini App's CSP reports
    (as it would in Telegram's web client)."""
    sdk = "telegram-web-apps.js" in message.location.get("url", "")
    return message.type == "error" and not (sdk and "inline style" in message.text)


@pytest.fixture
async def pages(browser: Any, served: Served) -> AsyncIterator[tuple[Any, Any]]:  # noqa: F811
    """Two phones on the same playground: the GM's and a player's."""
    contexts, opened = [], []
    for _ in range(2):
        context = await browser.new_context(viewport=PHONE, color_scheme="light")
        page = await context.new_page()
        page.problems = []
        page.on("pageerror", lambda e, page=page: page.problems.append(str(e)))
        page.on("console", lambda m, page=page: problem(m) and page.problems.append(m.text))
        await page.goto(served.url)
        await page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
        contexts.append(context)
        opened.append(page)
    try:
        yield opened[0], opened[1]
    finally:
        for context in contexts:
            await context.close()


async def be(page: Any, name: str) -> None:
    await page.get_by_role("radio", name=name).click()


async def open_chat(page: Any, title: str) -> None:
    await page.locator(".chat-item", has_text=title).click()
    await page.locator("#chat-title", has_text=title).wait_for(timeout=WAIT)


async def say(page: Any, text: str) -> None:
    await page.get_by_label("Сообщение").fill(text)
    await page.get_by_label("Сообщение").press("Enter")


def message(page: Any, text: str) -> Any:
    return page.locator("li.msg", has_text=text).last


async def toggle_theme(page: Any) -> None:
    # the switch is under the Mini App's full-screen panel on a phone: click it directly
    await page.locator("#dark").evaluate("box => box.click()")


async def shoot(page: Any, name: str) -> None:
    """`name`-light.png and `name`-dark.png (the page's own theme switch)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for dark in (False, True):
        if await page.locator("#dark").is_checked() != dark:
            await toggle_theme(page)
        if not await page.locator("#panel").is_hidden():  # the app reopens in the new theme
            frame = page.frame_locator("#frame")
            scheme = "dark" if dark else "light"
            await frame.locator(f"html[data-scheme='{scheme}']").wait_for(timeout=WAIT)
            await frame.locator("section.board").wait_for(timeout=WAIT)
        await page.screenshot(path=SHOTS / f"{name}-{'dark' if dark else 'light'}.png")
    await toggle_theme(page)  # back to light


async def test_a_newcomers_first_ten_minutes(pages: tuple[Any, Any], served: Served):
    gm, player = pages
    # The GM creates a game in the group.
    await be(gm, "Мастер")
    await open_chat(gm, "Игровой стол")
    await say(gm, "/newgame savage Тени")
    await message(gm, "Новая игра").wait_for(timeout=WAIT)
    assert await message(gm, "Новая игра").locator(".text b", has_text="Тени").count() == 1

    # A second user joins and rolls openly; the GM's phone sees it live.
    await be(player, "Аня")
    await open_chat(player, "Игровой стол")
    await say(player, "/join")
    await message(player, "вступает в игру").wait_for(timeout=WAIT)
    await say(player, "/r 2d6 удар")
    await message(gm, "Аня: 2d6").wait_for(timeout=WAIT)

    # A hidden roll by a player who never opened the bot: the command leaves the group,
    # the receipt says where to go, the start link opens her private chat and delivers it.
    await say(player, "/hr 2d6 засада")
    receipt = message(player, "скрытый бросок №")
    await receipt.wait_for(timeout=WAIT)
    assert await player.locator("li.msg", has_text="/hr 2d6").count() == 0
    # Buttons as a phone draws them (docs/playground.md): one line each, cut with «…», in a
    # message 340 px wide — what tests/bot/playground/test_keyboard_fit.py measures.
    box = await receipt.locator(".keyboard").bounding_box()
    assert box is not None and round(box["width"]) == 340
    label = receipt.locator(".kb-button .label").first
    style = "l => [getComputedStyle(l).whiteSpace, getComputedStyle(l).textOverflow]"
    assert await label.evaluate(style) == ["nowrap", "ellipsis"]
    await receipt.get_by_role("button", name="Открыть бота").click()
    await player.locator("#chat-title", has_text="@kosti_playground_bot").wait_for(timeout=WAIT)
    await message(player, "Ваш скрытый бросок").wait_for(timeout=WAIT)
    await shoot(player, "private-hidden-roll")

    # The GM opens the bot the same way and reveals it with the button of his copy.
    await (
        gm.locator("li.msg", has_text="скрытый бросок №")
        .last.get_by_role("button", name="Открыть бота")
        .click()
    )
    copy = message(gm, "Скрытый бросок №")
    await copy.wait_for(timeout=WAIT)
    await copy.locator(".kb-button", has_text="Раскрыть").click()
    await gm.locator("#toast", has_text="Раскрыт").wait_for(timeout=WAIT)
    await open_chat(gm, "Игровой стол")
    revealed = message(gm, "🔓 Скрытый бросок")
    await revealed.wait_for(timeout=WAIT)
    # Anyone checks the receipt: «Проверить» opens Kosti's own page here, which says ✓.
    async with gm.context.expect_page() as opened:
        await revealed.locator(".kb-button", has_text="Проверить").click()
    check = await opened.value
    await check.get_by_text("✓").first.wait_for(timeout=WAIT)
    assert check.url.startswith(served.url) and "/verify/" in check.url
    await check.close()

    # A fight: the player saves her character, the GM adds it and a group of extras.
    await open_chat(player, "Игровой стол")
    await say(player, "/char Ичиго (Дикий) Драка d10; Защита 7, Стойкость 8 (2)")
    await message(gm, "Сохранено: Ичиго").wait_for(timeout=WAIT)
    await say(gm, "/fight")
    await say(gm, "/add Ичиго")
    await message(gm, "Ичиго в бою").wait_for(timeout=WAIT)
    await say(gm, "/add Пустой (Статист, ×2) Драка d6; Защита 5, Стойкость 5")
    await message(gm, "Пустой ×2 в бою").wait_for(timeout=WAIT)
    board = gm.locator("li.msg", has_text="карты ещё не розданы").last
    await board.wait_for(timeout=WAIT)
    await board.evaluate("node => node.scrollIntoView({ block: 'start' })")
    # the live board pinned (the playground's group has the bot as an admin): its bar
    await gm.locator("#pinned", has_text="Закреплённое сообщение").wait_for(timeout=WAIT)
    assert "Бой" in await gm.locator("#pinned").inner_text()
    await shoot(gm, "group-fight-board")

    # Both open the Mini App from the board (its t.me link); the GM deals with Telegram's
    # main button of the panel; the player's board follows live.
    for page in (gm, player):
        await (
            page.locator("li.msg", has_text="Бой")
            .last.get_by_role("button", name="Открыть Mini App")
            .click()
        )
        frame = page.frame_locator("#frame")
        await frame.get_by_role("heading", name="Карты ещё не розданы").wait_for(timeout=WAIT)
    await gm.locator("#main-button", has_text="Раздать").click()
    await gm.frame_locator("#frame").get_by_role("heading", name="Раунд 1").wait_for(timeout=WAIT)
    # the app's haptic feedback, which a phone would vibrate, is shown in the panel's header
    await gm.locator("#haptic[data-kind='success']").wait_for(state="attached", timeout=WAIT)
    await (
        player.frame_locator("#frame").get_by_role("heading", name="Раунд 1").wait_for(timeout=WAIT)
    )
    await shoot(player, "miniapp-panel")
    await gm.locator("#panel-close").click()
    await gm.locator("li.msg", has_text="раунд 1").last.wait_for(timeout=WAIT)  # edited in place

    # The private chat's menu button (setChatMenuButton) opens the app on the GM's games.
    await open_chat(gm, "@kosti_playground_bot")
    await gm.locator("#app-button").click()
    await gm.frame_locator("#frame").get_by_text("Тени").first.wait_for(timeout=WAIT)
    assert gm.problems == [] and player.problems == []


@pytest.fixture
async def phone(browser: Any, served: Served) -> AsyncIterator[Any]:  # noqa: F811
    context = await browser.new_context(viewport=PHONE, color_scheme="light")
    page = await context.new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(str(e)))
    page.on("console", lambda m: problem(m) and page.problems.append(m.text))
    await page.goto(served.url)
    await page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    try:
        yield page
    finally:
        await context.close()


async def test_the_demo_tables_from_the_page(phone: Any, served: Served):
    """Each demo button lays its table out in its own chat and opens it there."""
    page = phone
    await be(page, "Мастер")
    # The Storyteller's group of its own: the board, and the attack waiting for the GM —
    # on scripted dice: Лиза 4+3+9, Вышибала 2+2+6, Артём 3+2+1; her shot hits for two
    rng = served.play.dispatcher["rng"]
    served.play.dispatcher["rng"] = Dice([9, 1, 6, 9, 9, 8, 2, 2, 2, 9, 7])
    await page.locator(".demo-button[data-system='storyteller']").click()
    await page.locator("#toast", has_text="Демо-стол готов").wait_for(timeout=WAIT)
    served.play.dispatcher["rng"] = rng
    await page.locator("#chat-title", has_text="Ночной город").wait_for(timeout=WAIT)
    await message(page, "Атака: ").wait_for(timeout=WAIT)
    board = page.locator("li.msg", has_text="ждёт решения ведущего").last
    await board.wait_for(timeout=WAIT)
    await board.evaluate("node => node.scrollIntoView({ block: 'start' })")
    await page.locator("#toast").wait_for(state="hidden", timeout=WAIT)
    await shoot(page, "demo-storyteller")
    # The duel's forum topic: the player's sealed receipt; the GM's form in the DM.
    await page.locator(".demo-button[data-system='duel']").click()
    await page.locator("#toast", has_text="в теме форума").wait_for(timeout=WAIT)
    await page.locator(".topic[aria-current='true']", has_text="Дуэль на мосту").wait_for(
        timeout=WAIT
    )
    await message(page, "ход 1 запечатан").wait_for(timeout=WAIT)
    await page.locator("#toast").wait_for(state="hidden", timeout=WAIT)
    await shoot(page, "demo-duel")
    await open_chat(page, "@kosti_playground_bot")
    await message(page, "заявка: Кэндзи").wait_for(timeout=WAIT)
    assert await message(page, "Предложение в игре «Ночной город»").count() == 1
    await message(page, "заявка: Кэндзи").scroll_into_view_if_needed()
    await shoot(page, "demo-duel-form")  # each kind named on its row, its sides below
    # The GM seals Кэндзи's turn by the form's buttons and publishes the turn from the
    # review: the topic after a turn (issue 26: short receipt lines, the dice seed's check).
    form = message(page, "заявка: Кэндзи")
    # a kind of action is named on a row of its own, its sides below: a dodge from the left
    names = await form.locator("button").all_inner_texts()
    dodge = next(i for i, text in enumerate(names) if text.startswith("💨 "))
    assert "⬅️" in names[dodge + 1]
    await form.locator("button").nth(dodge + 1).click()
    await page.wait_for_timeout(300)
    for label in ("К АП", "✉️"):
        await form.locator("button", has_text=label).first.click()
        await page.wait_for_timeout(300)
    await message(page, "Опубликовать ход 1").locator("button", has_text="Опубликовать").click()
    await open_chat(page, "Клуб «Дикий край»")
    await page.locator(".topic", has_text="Дуэль на мосту").click()
    post = message(page, "⚔️ Ход 1")
    await post.wait_for(timeout=WAIT)
    assert "✓ сходится" in await post.inner_text()
    await post.evaluate("node => node.scrollIntoView({ block: 'start' })")
    await shoot(page, "demo-duel-turn")
    # the GM's readings (issue 27): numbered in full in the message, a number's button each,
    # five a row — no label cut
    await say(page, "/duel правила")
    rules = message(page, "Кнопка с номером правила")
    await rules.wait_for(timeout=WAIT)
    assert await rules.locator(".kb-button").all_inner_texts() == [str(n) for n in range(1, 14)]
    await rules.evaluate("node => node.scrollIntoView({ block: 'end' })")
    await shoot(page, "demo-duel-rules")
    await storyteller_at_the_table(page, served)
    assert page.problems == []


def page_chat(served: Served, title: str) -> int:
    return next(c.id for c in served.play.world.chats.values() if c.title == title)


async def tap(page: Any, holding: str, label: str) -> None:
    """Tap `label` on the newest message holding `holding`."""
    await message(page, holding).locator(".kb-button", has_text=label).first.click()


async def attack_on_the_board(page: Any) -> None:
    board = page.locator("li.msg", has=page.locator(".kb-button", has_text="Инициатива"))
    await board.last.locator(".kb-button", has_text="⚔️ Атака").click()


async def storyteller_at_the_table(page: Any, served: Served) -> None:
    """The demo's Storyteller fight, tapped (issue 25): the GM publishes Лиза's shot — the
    attack's message becomes its result; Вышибала's knife at Артём asks Борис for a defense
    in the group; Борис's picker in the group, an aimed target and two actions chosen."""
    served.play.dispatcher["rng"] = Dice([])  # 2s: misses
    await open_chat(page, "@kosti_playground_bot")
    await tap(page, "Предложение в игре «Ночной город»", "Опубликовать")
    await open_chat(page, "Ночной город")
    published = message(page, "Урон, цель — Вышибала")
    await published.wait_for(timeout=WAIT)
    await published.evaluate("node => node.scrollIntoView({ block: 'end' })")
    await page.locator("#toast").wait_for(state="hidden", timeout=WAIT)
    await shoot(page, "storyteller-published")
    # the demo fight has no time to choose a defense (its game's option); the GM gives one
    game = await find_game(page_chat(served, "Ночной город"), None)
    assert game is not None
    view = await current_fight(game.id)
    assert view is not None
    timed = cmd.Configure(dataclasses.replace(view.state.options, defense_seconds=60))
    await fight_command(game.id, timed, actor_id=GM, rng=Dice([]))
    # Вышибала is up: the GM's picker comes in the private chat (an NPC's weapons are his)
    await attack_on_the_board(page)
    await open_chat(page, "@kosti_playground_bot")
    await tap(page, "Вышибала атакует", "Артём")
    await tap(page, "Чем?", "Нож")
    await tap(page, "Что-то ещё?", "⚔️ Атака")
    await open_chat(page, "Ночной город")
    asking = message(page, "выберите защиту")
    await asking.wait_for(timeout=WAIT)
    await asking.evaluate("node => node.scrollIntoView({ block: 'end' })")
    await page.locator("#toast").wait_for(state="hidden", timeout=WAIT)
    await shoot(page, "storyteller-defense-choice")
    await be(page, "Борис")
    await tap(page, "выберите защиту", "Без защиты")
    await be(page, "Мастер")
    await open_chat(page, "@kosti_playground_bot")
    await tap(page, "Предложение в игре «Ночной город»", "Опубликовать")
    # Артём is up: Борис's picker in the group, what each choice does to the pool shown
    await be(page, "Борис")
    await open_chat(page, "Ночной город")
    await message(page, "Атака: Вышибала → Артём").wait_for(timeout=WAIT)
    await attack_on_the_board(page)
    await tap(page, "Артём атакует", "Вышибала")
    await tap(page, "Чем?", "Дубинка")
    await tap(page, "Что-то ещё?", "Маленькая")
    await page.locator(".kb-button", has_text="☑️ Маленькая").wait_for(timeout=WAIT)
    await tap(page, "Что-то ещё?", "2 действия")
    picker = message(page, "Что-то ещё?")
    await picker.locator(".kb-button", has_text="☑️ ✌️ 2 действия").wait_for(timeout=WAIT)
    await picker.evaluate("node => node.scrollIntoView({ block: 'end' })")
    await page.locator("#toast").wait_for(state="hidden", timeout=WAIT)
    await shoot(page, "storyteller-picker")
    assert served.failures() == [] and served.alerts() == []
