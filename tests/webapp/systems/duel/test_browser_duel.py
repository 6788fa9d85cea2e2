"""The duel in real Chromium: a fighter declares a turn with the form's big buttons and AP
steppers, the GM's review and the opponent's board follow live (the opponent's page never
holds the submission), the GM publishes and the post appears on both; the fighters' tab
saves a sheet. Screenshots at 390×844, light and dark, go to test-artifacts/webapp/."""

from __future__ import annotations

import re

import pytest

from engine.dice.rng import ScriptedRng
from engine.duel import FullDefense
from engine.services import duel as duels
from engine.services import get_game
from engine.services.notify import using
from engine.services.types import GameInfo
from tests.engine.duel.six_turns import TURNS
from tests.webapp.browser import ARROW_AND_PADDING, ARTIFACTS, OPTION_WIDTHS
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, STRANGER_ID, TOKEN
from tests.webapp.systems.duel.table import TOPIC, make_duel
from tests.webapp.systems.storyteller.test_browser_board import retheme
from tests.webapp.test_axe import violations
from tests.webapp.test_browser import (  # noqa: F401 (fixtures)
    browser,
    main_button_shows,
    open_app,
    press_main_button,
    server,
)
from webapp.dev import DARK_THEME, LIGHT_THEME
from webapp.keys import LINK_SECRET, NOTIFIER
from webapp.links import startapp_token
from webapp.systems.duel.verify import verify_path

MAIN_SHOWN = "() => Boolean(window.Telegram.WebApp.MainButton.isVisible)"
MAIN_HIDDEN = "() => !window.Telegram.WebApp.MainButton.isVisible"
CLOSING_ASKS = "() => window.Telegram.WebApp.isClosingConfirmationEnabled"
CLOSING_FREE = "() => !window.Telegram.WebApp.isClosingConfirmationEnabled"


@pytest.fixture
async def duel_game(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_duel()


@pytest.fixture
async def seeded_duel(db) -> GameInfo:  # type: ignore[no-untyped-def]
    return await make_duel(seeded=True)


async def shoot(page, name: str, full: bool = True) -> None:  # type: ignore[no-untyped-def]
    """The whole page, or (``full`` False) the 390×844 screen as it first shows."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


async def open_duel(chromium, app_server, user_id, game, dark=False):  # type: ignore[no-untyped-def]
    page = await open_app(
        chromium, app_server, user_id, startapp_token(game.id, bot_token=TOKEN), dark=dark
    )
    await page.locator("[data-tab='duel']").click()
    await page.locator("article.duel").first.wait_for(timeout=5000)
    return page


async def test_a_turn_declared_by_buttons_reviewed_and_published(browser, server, seeded_duel):  # noqa: F811
    duel_game = seeded_duel  # the first turn's dice come from a committed seed
    anya = await open_duel(browser, server, PLAYER_ID, duel_game)
    boris = await open_duel(browser, server, OTHER_ID, duel_game, dark=True)
    gm = await open_duel(browser, server, GM_ID, duel_game, dark=True)
    # the GM gives each turn a day: every board shows when this turn is due
    await gm.locator(".duel-deadline input[name='hours']").fill("24")
    await gm.locator("[data-command='deadline']").click()
    await anya.locator(".due").wait_for(timeout=3000)
    assert "Ход нужно прислать до" in await boris.locator(".due").inner_text()
    form = anya.locator("[data-form='a']")
    await form.wait_for(timeout=3000)
    assert await boris.locator("[data-form='a']").count() == 0
    await form.locator("[data-kind='attack:attack']").click()
    await form.locator("[data-dir='left']").click()
    await form.locator("[data-kind='block']").click()
    await form.locator("[data-dir='right']").click()
    await form.locator("[data-stepper='ap-0'] button").last.click()
    await form.locator("[data-stepper='ap-0'] button").last.click()
    assert "2" in await form.locator("[data-stepper='ap-0'] b").inner_text()
    await form.locator("textarea[name='comment']").fill("целюсь в щит")
    chosen = await form.inner_text()
    assert "Атака ⬅️" in chosen and "«Атака»" not in chosen  # the move named once
    await shoot(anya, "duel-form-light")
    # «Отправить ход» is Telegram's MainButton (issue 27): the form's one primary action
    await press_main_button(anya, "Отправить ход")
    # sealed everywhere: who and the receipt; the GM's review lists the submission, its dice
    # to come once both turns are sealed (the seed's dice mix both receipts in)
    await boris.locator("[data-fighter='a'] .sealed.in").wait_for(timeout=3000)
    sealed = await boris.locator("[data-fighter='a'] .sealed.in").inner_text()
    assert re.search(r"\b[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}\b", sealed)  # the short code
    await gm.locator(".duel-review li", has_text="ход запечатан").first.wait_for(timeout=3000)
    assert "целюсь в щит" in await gm.locator("[data-comment='a']").inner_text()
    assert await anya.locator("[data-form='a']").count() == 0
    raw = "".join(f if isinstance(f, str) else f.decode() for f in boris.frames_received)
    assert '"checks"' not in raw and "целюсь" not in raw and "целюсь" not in await boris.content()
    theirs = boris.locator("[data-form='b']")
    for kind, side in (("attack:attack", "top"), ("dodge", "left")):
        await theirs.locator(f"[data-kind='{kind}']").click()
        await theirs.locator(f"[data-dir='{side}']").click()
    await shoot(boris, "duel-form-dark")
    await press_main_button(boris, "Отправить ход")
    # «Опубликовать ход 1» is Telegram's MainButton (issue 27), the GM's only
    await gm.wait_for_function(MAIN_SHOWN, timeout=3000)
    await shoot(gm, "duel-review-gm-dark")
    assert await anya.evaluate(MAIN_SHOWN) is False
    await press_main_button(gm, "Опубликовать ход 1")
    await gm.wait_for_function(MAIN_HIDDEN, timeout=3000)  # turn 2 waits for both
    await anya.locator("details.post summary", has_text="Ход 1").wait_for(timeout=3000)
    await boris.locator("details.post summary", has_text="Ход 1").wait_for(timeout=3000)
    await shoot(anya, "duel-board-light")
    await shoot(boris, "duel-board-dark")
    stop = gm.locator("[data-command='stop']")
    await stop.scroll_into_view_if_needed()
    await shoot(gm, "duel-stop-gm-dark", full=False)
    await gm.emulate_media(color_scheme="light")
    await shoot(gm, "duel-review-gm-after-light")
    # the fighters' tab: the sheets as text, a player's own saved from the page
    await anya.locator("[data-tab='fighters']").click()
    await anya.locator("[data-fighter-entry] pre", has_text="Такеда").wait_for(timeout=3000)
    sheet = "Бьорн\nКласс: Рейдер\nАтака 3, Блок 1, Уклонение 0, Урон d8, Хп 24, Броня 1"
    await anya.locator("textarea[name='sheet']").fill(sheet)
    await anya.wait_for_function(CLOSING_ASKS, timeout=3000)  # unsaved: Telegram asks first
    await press_main_button(anya, "Сохранить бойца")  # the tab's one primary action (issue 27)
    await anya.locator("[data-fighter-entry] pre", has_text="Атака 3").wait_for(timeout=3000)
    await anya.wait_for_function(CLOSING_FREE, timeout=3000)  # saved
    await shoot(anya, "duel-fighters-light")
    await retheme(anya, DARK_THEME)  # the same tab in a Telegram client's night theme
    await shoot(anya, "duel-fighters-dark")
    assert anya.problems == [] and boris.problems == [] and gm.problems == []
    # the post's receipt lines are short and checked; the comment is the GM's alone
    post = await boris.locator("details.post").first.text_content() or ""
    assert post.count("✓ сходится") == 2 and "целюсь в щит" not in post and '{"' not in post
    # a receipt's verification page (issue 26 item 3): the browser hashes the text itself
    view = await duels.current_duel(duel_game.id, TOPIC)
    assert view is not None
    receipt = view.state.history[0].reveals[0].receipt
    path = verify_path(server.app[LINK_SECRET], duel_game.id, view.stream, 1, receipt)
    await anya.goto(str(server.make_url(path)) + "?lang=ru")
    await anya.locator("#status[data-result='match']").wait_for(timeout=3000)
    assert "целюсь в щит" not in await anya.locator("#payload").input_value()
    # the turn's dice: the browser checks the seed against the posted hash and every die
    # against the seed and both sealed receipts (the text it builds ends with them)
    await anya.locator("#dice-status[data-result='match']").wait_for(timeout=3000)
    assert await anya.locator("#dice-items li").count() >= 3  # attack, its damage, the block
    items = await anya.locator("#dice-items").inner_text()
    both = "|".join(r.receipt for r in view.state.history[0].reveals)
    assert "✗" not in items and items.count(both) >= 3
    assert await anya.locator("#dice-receipt-a").inner_text() == receipt
    await shoot(anya, "duel-verify-light")
    await anya.emulate_media(color_scheme="dark")
    await shoot(anya, "duel-verify-dark")
    assert anya.problems == []


async def test_the_gm_changes_the_second_d10_of_a_full_defense(browser, server, duel_game):  # noqa: F811
    # Бьорн in full defense on the right (d10 3 and 2), Такеда's attack on the right (d10 7)
    game = duel_game.id
    await duels.submit_turn(game, TOPIC, fighter="a", actions=[FullDefense("right")], turn=1,
                            actor_id=PLAYER_ID, rng=ScriptedRng([3, 2]))  # fmt: skip
    _, _, b, fb = TURNS[0]
    await duels.submit_turn(game, TOPIC, fighter="b", actions=b, turn=1,
                            actor_id=OTHER_ID, rng=ScriptedRng(fb))  # fmt: skip
    # a second duel, in another topic, waits for the GM too (Такеда «a» there)
    other = TOPIC + 1
    await duels.start_duel(game, thread=other, a="Такеда", b="Бьорн", actor_id=GM_ID,
                           rng=ScriptedRng([]))  # fmt: skip
    await duels.submit_turn(game, other, fighter="a", actions=b, turn=1,
                            actor_id=OTHER_ID, rng=ScriptedRng(fb))  # fmt: skip
    await duels.submit_turn(game, other, fighter="b", actions=[FullDefense("left")], turn=1,
                            actor_id=PLAYER_ID, rng=ScriptedRng([5, 4]))  # fmt: skip
    gm = await open_duel(browser, server, GM_ID, duel_game)
    first = gm.locator(f"article.duel[data-thread='{TOPIC}']")
    second = gm.locator(f"article.duel[data-thread='{other}']")
    review = first.locator(".duel-review")
    await review.locator("select[name='field']").wait_for(timeout=5000)
    await second.locator(".duel-review select[name='field']").wait_for(timeout=5000)
    # one MainButton for two reviews: the first duel on the page owns it, named; the other
    # keeps a plain button of its own (issue 27: one primary action a screen)
    await main_button_shows(gm, "Опубликовать ход 1: Бьорн — Такеда")
    assert await first.locator("[data-command='publish']").count() == 0
    theirs = second.locator("[data-command='publish']")
    assert await theirs.inner_text() == "Опубликовать ход 1"
    assert "primary-act" not in (await theirs.get_attribute("class") or "")
    assert await gm.locator("button.primary-act").count() == 0
    await shoot(gm, "duel-two-reviews-gm-light")
    await retheme(gm, DARK_THEME)
    await shoot(gm, "duel-two-reviews-gm-dark")
    await retheme(gm, LIGHT_THEME)
    await review.locator("select[name='field']").select_option("roll")
    dice = review.locator("select[name='roll'] option")
    assert await dice.all_inner_texts() == [
        "действие 1, первый d10: 3",
        "действие 1, второй d10: 2",
    ]
    await review.locator("select[name='roll']").select_option("0:1")
    await review.locator("input[name='value']").fill("10")
    await review.locator("input[name='reason']").fill("ошибка в броске")
    await shoot(gm, "duel-review-second-d10-light")
    # the review's change form: every select and field named (axe-core, issue 27 item 3)
    assert await violations(gm) == []
    await review.locator("[data-command='adjust']").click()
    changed = review.locator("li", has_text="на втором d10 выпало 10 (было 2)")
    await changed.wait_for(timeout=3000)
    parry = "критический блок с верной стороны — парирование"
    await review.locator("li", has_text=parry).first.wait_for(timeout=3000)
    view = await duels.current_duel(game, TOPIC)
    assert view is not None
    [note] = [a for a in view.state.adjustments if a.code == "adjusted_roll"]
    assert (note.params["action"], note.params["check"], note.params["face"]) == (1, 1, 10)
    # the list names the face the turn is resolved with, as the chat's review buttons do
    assert await dice.all_inner_texts() == [
        "действие 1, первый d10: 3",
        "действие 1, второй d10: 10",
    ]
    # Такеда's attack has one d10 only
    await review.locator("select[name='fighter']").select_option("b")
    assert await dice.all_inner_texts() == ["действие 1, d10: 7", "действие 2, d10: 2"]
    # the GM stops the duel (issue 26 item 5), asked first with Telegram's confirm popup
    stop = first.locator("[data-command='stop']")
    assert await stop.inner_text() == "⏹ Остановить дуэль"
    await stop.scroll_into_view_if_needed()
    await shoot(gm, "duel-stop-gm-light", full=False)
    answer = (
        "([id]) => window.Telegram.WebView.receiveEvent('popup_closed', id ? {button_id: id} : {})"
    )
    await stop.click()
    await gm.evaluate(answer, [None])  # cancelled: the duel goes on
    await gm.wait_for_timeout(300)
    view = await duels.current_duel(game, TOPIC)
    assert view is not None and not view.state.over
    await stop.click()
    await gm.evaluate(answer, ["ok"])
    await first.locator(".board-head .hint", has_text="Дуэль окончена").wait_for(timeout=3000)
    assert await stop.count() == 0
    assert await first.locator(".duelist .sealed").count() == 0  # no «not sent yet» when stopped
    await shoot(gm, "duel-stopped-gm-light")
    view = await duels.current_duel(game, TOPIC)
    assert view is not None and view.state.over and view.state.history == ()
    # the MainButton passes to the duel still waiting, and publishes that one
    await press_main_button(gm, "Опубликовать ход 1")
    await second.locator("details.post summary", has_text="Ход 1").wait_for(timeout=3000)
    await gm.wait_for_function(MAIN_HIDDEN, timeout=3000)  # nothing left to publish
    view = await duels.current_duel(game, other)
    assert view is not None and len(view.state.history) == 1
    assert gm.problems == []


async def open_rules(chromium, app_server, user_id, game, dark=False):  # type: ignore[no-untyped-def]
    page = await open_app(
        chromium, app_server, user_id, startapp_token(game.id, bot_token=TOKEN), dark=dark
    )
    await page.locator("[data-tab='rules']").click()
    await page.locator(".duel-rules [data-reading]").first.wait_for(timeout=5000)
    return page


async def test_the_gm_changes_a_reading_and_everyone_sees_it(browser, server, duel_game):  # noqa: F811
    gm = await open_rules(browser, server, GM_ID, duel_game)
    tie = gm.locator("[data-reading='dodge_tie']")
    assert await tie.locator("h3").inner_text() == "Ничья при уклонении"
    assert "В случае ничьей защита > атака." in await tie.locator(".seed").inner_text()
    on = tie.locator("button.choice.on")
    assert await on.inner_text() == "засчитывается защите (уклонение удалось) (по умолчанию)"
    assert (
        "Сейчас идёт дуэль Бьорн — Такеда." in await gm.locator(".duel-rules .running").inner_text()
    )
    assert await tie.locator(".kept").count() == 0
    await tie.locator("button.choice", has_text="засчитывается атаке").click()
    kept = tie.locator(".kept")
    await kept.wait_for(timeout=3000)
    assert await kept.inner_text() == (
        "⚔️ Дуэль Бьорн — Такеда остаётся при своём: засчитывается защите (уклонение удалось)"
    )
    assert await on.inner_text() == "засчитывается атаке (удар проходит)"
    assert duels.game_rules(await get_game(duel_game.id)).dodge_tie == "attack"
    cap = gm.locator("[data-reading='sp_cap']")
    await cap.locator("button.choice", has_text="6 СП").click()
    await cap.locator(".kept").wait_for(timeout=3000)
    await shoot(gm, "duel-rules-gm-light")
    await shoot(gm, "duel-rules-gm-light-screen", full=False)
    # a spectator and a fighter read them and cannot change them
    guest = await open_rules(browser, server, STRANGER_ID, duel_game, dark=True)
    anya = await open_rules(browser, server, PLAYER_ID, duel_game)
    for page in (guest, anya):
        assert await page.locator("button.choice").count() == 0
        assert "Менять их может только ведущий." in await page.locator(".duel-rules").inner_text()
        current = page.locator("[data-reading='dodge_tie'] .current")
        assert await current.inner_text() == "В этой игре: засчитывается атаке (удар проходит)"
        limit = page.locator("[data-reading='sp_cap'] .current")
        assert await limit.inner_text() == "В этой игре: 6 СП"
    await shoot(guest, "duel-rules-spectator-dark")
    await shoot(guest, "duel-rules-spectator-dark-screen", full=False)
    await shoot(anya, "duel-rules-player-light")
    gm_dark = await open_rules(browser, server, GM_ID, duel_game, dark=True)
    await shoot(gm_dark, "duel-rules-gm-dark")
    await shoot(gm_dark, "duel-rules-gm-dark-screen", full=False)
    assert gm.problems == guest.problems == anya.problems == gm_dark.problems == []


async def test_a_reading_changed_elsewhere_reaches_an_open_rules_tab(browser, server, duel_game):  # noqa: F811
    """The GM changes a reading in the chat (`/duel правила`, the same service): a fighter's
    Rules tab, already open, shows the new one without a reload."""
    anya = await open_rules(browser, server, PLAYER_ID, duel_game)
    current = anya.locator("[data-reading='dodge_tie'] .current")
    assert await current.inner_text() == "В этой игре: засчитывается защите (уклонение удалось)"
    with using(server.app[NOTIFIER]):  # as the bot's process tells its Mini App
        await duels.set_rule(duel_game.id, "dodge_tie", "attack", actor_id=GM_ID)
    await anya.wait_for_function(
        "() => document.querySelector(\"[data-reading='dodge_tie'] .current\")"
        ".textContent.includes('атаке')",
        timeout=5000,
    )
    assert await current.inner_text() == "В этой игре: засчитывается атаке (удар проходит)"
    assert anya.problems == []


async def test_a_duel_started_elsewhere_shows_on_open_pages(browser, server, duel_game):  # noqa: F811
    """The list of running duels (each keeps its readings) follows the live scene: a duel the
    GM starts in another topic appears on a Rules tab already open. A fighter in both duels
    has one MainButton: the first duel's form owns it, then the one still waiting."""
    gm = await open_rules(browser, server, GM_ID, duel_game)
    running = gm.locator(".duel-rules .running")
    assert await running.inner_text() == (
        "Сейчас идёт дуэль Бьорн — Такеда. Она остаётся при своих правилах; изменения здесь — "
        "для следующих дуэлей."
    )
    with using(server.app[NOTIFIER]):  # as the chat's /duel in another topic
        await duels.start_duel(
            duel_game.id,
            thread=TOPIC + 1,
            a="Такеда",
            b="Бьорн",
            actor_id=GM_ID,
            rng=ScriptedRng([]),
        )
    await gm.wait_for_function(
        "() => document.querySelector('.duel-rules .running').textContent.includes('идут')",
        timeout=5000,
    )
    assert "Бьорн — Такеда, Такеда — Бьорн" in await running.inner_text()
    assert gm.problems == []

    anya = await open_duel(browser, server, PLAYER_ID, duel_game)  # Бьорн in both duels
    first = anya.locator(f"article.duel[data-thread='{TOPIC}'] [data-form='a']")
    second = anya.locator(f"article.duel[data-thread='{TOPIC + 1}'] [data-form='b']")
    await second.wait_for(timeout=5000)
    assert await anya.evaluate(MAIN_HIDDEN)  # nothing declared yet
    theirs = second.locator("[data-command='submit']")  # the other form's own, plain
    assert "primary-act" not in (await theirs.get_attribute("class") or "")
    assert await first.locator("[data-command='submit']").count() == 0
    await first.locator("[data-kind='block']").click()
    await first.locator("[data-dir='left']").click()
    await press_main_button(anya, "Отправить ход: Бьорн — Такеда")
    await first.wait_for(state="detached", timeout=3000)  # sent
    await second.locator("[data-kind='dodge']").click()
    await second.locator("[data-dir='right']").click()
    await main_button_shows(anya, "Отправить ход")  # now the second duel's, its own gone
    assert anya.problems == []


async def test_the_deadline_choices_fit_a_phone_screen(browser, server, duel_game):  # noqa: F811
    for dark in (False, True):
        gm = await open_duel(browser, server, GM_ID, duel_game, dark=dark)
        await gm.locator(".duel-deadline").scroll_into_view_if_needed()
        choices = await gm.evaluate(OPTION_WIDTHS, ".duel-deadline select[name='policy']")
        assert [text for text, _, _ in choices] == [
            "решает ведущий",
            "защита по умолчанию",
            "ход ждёт",
        ]
        for text, width, inner in choices:
            assert width + ARROW_AND_PADDING <= inner, (text, width, inner)  # not cut at 390 px
        await shoot(gm, f"duel-deadline-gm-{'dark' if dark else 'light'}", full=False)
        assert gm.problems == []
