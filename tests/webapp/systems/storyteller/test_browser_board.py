"""The Storyteller board in real Chromium at 390×844: the attacked player chooses a defense
on the board, the GM sees the proposal with its dice and publishes it; a player's page
(dark) shows first only that the GM decides, then the attack's steps, live. Each screen's
one primary action is Telegram's MainButton, as the turn goes (publish, the next fighter's
attack, the next turn's initiative). Screenshots (light and dark) go to
test-artifacts/webapp/."""

from __future__ import annotations

import itertools

import pytest

from engine.dice.odds import odds
from engine.dice.rng import ScriptedRng
from engine.services import storyteller as st
from engine.services.storyteller.options import load_options
from engine.storyteller import commands as cmd
from engine.storyteller.healing import healing_hours
from engine.storyteller.options import DEFAULT_HEALING, LETHAL, SEED_AIM_TARGETS, AimTarget
from engine.storyteller.sheet import EXAMPLE, format_sheet
from tests.engine.storyteller import test_fight as scripted
from tests.webapp.browser import ARTIFACTS
from tests.webapp.conftest import GM_ID, OTHER_ID, PLAYER_ID, TOKEN, make_game
from tests.webapp.test_browser import (  # noqa: F401 (fixtures)
    browser,
    main_button_shows,
    open_app,
    press_main_button,
    server,
)
from webapp.dev import DARK_THEME, LIGHT_THEME
from webapp.links import startapp_token

MAIN_SHOWN = "() => Boolean(window.Telegram.WebApp.MainButton.isVisible)"
MAIN_TEXT = "() => (b => (b.isVisible ? b.text : ''))(window.Telegram.WebApp.MainButton)"
CLOSING_ASKS = "() => window.Telegram.WebApp.isClosingConfirmationEnabled"
CAST = (
    ("vera", scripted.VERA, PLAYER_ID),
    ("max", scripted.MAX, OTHER_ID),
    ("boss", scripted.BOSS, None),
    ("thug1", scripted.THUG1, None),
    ("thug2", scripted.THUG2, None),
    ("thug3", scripted.THUG3, None),
)


class Recorder(scripted.Game):
    def __init__(self) -> None:
        super().__init__()
        self.played: list[tuple[cmd.Command, list[int]]] = []

    def do(self, command: cmd.Command, *rolled: list[int]) -> object:
        self.played.append((command, list(itertools.chain.from_iterable(rolled))))
        return super().do(command, *rolled)


@pytest.fixture
async def fight(db) -> int:  # type: ignore[no-untyped-def]
    """The scripted fight up to the boss's shot at Vera, waiting for the GM."""
    engine = Recorder()
    for fid, c, owner in CAST:
        engine.do(cmd.AddFighter(fid, c, owner))
    scripted.play(engine)
    game = await make_game("storyteller")
    for _fid, c, owner in CAST:
        await st.save_character(
            game.id, format_sheet(c), actor_id=owner or GM_ID, template=not owner
        )
    await st.start_fight(game.id, actor_id=GM_ID)
    for _fid, c, _owner in CAST:
        await st.add_to_fight(game.id, c.name, actor_id=GM_ID, rng=ScriptedRng([]))
    view = await st.current_fight(game.id)
    assert view is not None
    ids = {fid: next(f.id for f in view.state.fighters if f.character.name == c.name)
           for fid, c, _ in CAST}  # fmt: skip

    def mapped(command: cmd.Command) -> cmd.Command:
        changes = {k: ids[v] for k in ("attacker", "target", "victim", "fighter")
                   if isinstance(v := getattr(command, k, None), str) and v in ids}  # fmt: skip
        return type(command)(**{**{f: getattr(command, f) for f in command.__slots__}, **changes})  # type: ignore[attr-defined]

    for command, rolled in engine.played[len(CAST) :]:
        out = await st.fight_command(
            game.id, mapped(command), actor_id=GM_ID, rng=ScriptedRng(rolled)
        )
        if isinstance(command, cmd.Attack) and command.attacker == "boss":
            return game.id
        if isinstance(command, cmd.Attack):
            await st.fight_command(game.id, cmd.Publish(), actor_id=GM_ID, rng=ScriptedRng([]))
        assert out.events
    raise AssertionError("the boss never shot")


async def retheme(page, theme: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    await page.evaluate(
        "(p) => window.Telegram.WebView.receiveEvent('theme_changed', {theme_params: p})", theme
    )
    scheme = "dark" if theme is DARK_THEME else "light"
    await page.wait_for_function(f"() => document.documentElement.dataset.scheme === '{scheme}'")


async def shoot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


async def test_the_gm_publishes_a_proposal_and_the_players_board_follows(browser, server, fight):  # noqa: F811
    start = startapp_token(fight, "initiative", bot_token=TOKEN)
    gm = await open_app(browser, server, GM_ID, start)
    player = await open_app(browser, server, PLAYER_ID, start, dark=True)
    # Vera delayed: her player chooses her defense first (issue 25) — only an interrupt
    # would let her defend, and a pistol cannot be blocked
    asking = player.get_by_test_id("asking")
    await asking.wait_for(timeout=5000)
    await gm.get_by_test_id("asking").wait_for(timeout=5000)
    labels = [await b.inner_text() for b in await asking.locator("button").all()]
    assert labels[0] == "⏱ Без защиты" and len(labels) > 1, labels  # the default, marked
    assert all("Силы воли" in label for label in labels[1:]), labels
    assert not any("Блок" in label for label in labels)
    await shoot(player, "storyteller-asking-player-dark")
    await shoot(gm, "storyteller-asking-gm-light")
    # and each in the other theme (the pending choice, light and dark)
    await retheme(player, LIGHT_THEME)
    await shoot(player, "storyteller-asking-player-light")
    await retheme(player, DARK_THEME)
    await retheme(gm, DARK_THEME)
    await shoot(gm, "storyteller-asking-gm-dark")
    await retheme(gm, LIGHT_THEME)
    await asking.locator("button", has_text="Без защиты").click()  # as the story goes
    proposal = gm.get_by_test_id("proposal").filter(has_text="Атака: Босс → Вероника")
    await proposal.wait_for(timeout=5000)
    await player.locator(".st-waiting").wait_for(timeout=5000)
    assert await player.get_by_test_id("proposal").count() == 0
    # the tie of the first turn is shown as one group; Vera's track is public
    assert await player.locator(".st-tie .st-fighter").count() == 2
    assert await player.get_by_text("Бросить инициативу").count() == 0
    assert "[" in await proposal.inner_text()  # the GM sees the dice
    await shoot(gm, "storyteller-proposal-gm-light")
    await retheme(gm, DARK_THEME)  # as a Telegram client switched to its night theme
    await shoot(gm, "storyteller-proposal-gm-dark")
    await retheme(gm, LIGHT_THEME)
    await shoot(player, "storyteller-waiting-player-dark")
    assert await player.evaluate(MAIN_SHOWN) is False  # the GM's action only
    # «Опубликовать» is Telegram's MainButton (issue 27); it goes with the proposal
    await press_main_button(gm, "Опубликовать")
    await proposal.wait_for(state="detached", timeout=5000)
    # the turn goes on: the GM's one primary action is now the next fighter's attack, named,
    # on the MainButton; «Бросить инициативу» waits as a plain button (issue 27)
    await main_button_shows(gm, "Атака: Бандит 1 → Вероника")
    assert await gm.locator("[data-command='attack']").count() == 0
    assert await gm.locator("button.primary-act").count() == 0
    assert await gm.locator("[data-command='initiative']").is_visible()
    # the last attack shown was Max's punch; now the boss's shot replaces it, live
    await player.locator(".st-last", has_text="Атака: Босс → Вероника").wait_for(timeout=5000)
    # the boss's dice stay the GM's: the player's page has no faces of its attack
    first = await player.locator(".st-last .st-steps li").first.inner_text()
    assert "[" not in first and "успехов" in first
    vera = player.locator(".st-fighter[data-fighter='veronika']")
    await vera.locator(".st-box.lethal").first.wait_for(timeout=3000)
    assert await vera.locator(".st-box.lethal").count() == 2
    await shoot(player, "storyteller-board-player-dark")
    await shoot(gm, "storyteller-board-gm-light")
    # Vera delayed: not her turn, so her player has no MainButton and a plain «Атака»
    assert await player.evaluate(MAIN_SHOWN) is False
    assert await player.locator("button.primary-act").count() == 0
    assert await player.locator("[data-command='attack']").is_visible()

    # the GM undoes the publication: the proposal is back, and the log keeps the boss's
    # shot in sight, struck through, «отменено ведущим», above Max's punch (still standing)
    await gm.locator("[data-command='undo']").click()
    for page in (gm, player):
        undone = page.get_by_test_id("undone-attack")
        await undone.wait_for(timeout=5000)
        assert "Атака: Босс → Вероника" in await undone.inner_text()
        assert "↩️ отменено ведущим" in await undone.inner_text()
        struck = await undone.locator(".st-steps span").first.evaluate(
            "(e) => getComputedStyle(e).textDecorationLine"
        )
        assert struck == "line-through"
        standing = page.locator(".st-last > .st-steps li").first
        assert "Атака: Макс" in await standing.inner_text()
    await gm.get_by_test_id("proposal").wait_for(timeout=5000)
    await shoot(player, "storyteller-undone-player-dark")
    await shoot(gm, "storyteller-undone-gm-light")
    assert await vera.locator(".st-box.lethal").count() == 0  # the damage went with it

    # published again; once nobody is left to act, the MainButton rolls the next turn's
    # initiative (the page keeps no button of its own for it)
    await press_main_button(gm, "Опубликовать")
    for _ in range(len(CAST) + 1):
        if await gm.evaluate(MAIN_TEXT) == "Бросить инициативу":
            break
        before = await gm.evaluate(MAIN_TEXT)
        await gm.locator("[data-command='done']").click()
        await gm.wait_for_function(f"(t) => ({MAIN_TEXT})() !== t", arg=before, timeout=3000)
    await shoot(gm, "storyteller-initiative-gm-light")
    await retheme(gm, DARK_THEME)
    await shoot(gm, "storyteller-initiative-gm-dark")
    await press_main_button(gm, "Бросить инициативу")
    await gm.get_by_role("heading", name="Ход 2").wait_for(timeout=3000)
    # «Закончить бой» asks first (Telegram's confirm popup): cancelled, the fight goes on
    await gm.locator("[data-command='end']").click()
    await gm.evaluate("() => window.Telegram.WebView.receiveEvent('popup_closed', {})")
    await gm.wait_for_timeout(300)
    view = await st.current_fight(fight)
    assert view is not None and not view.closed
    # turn 2 (the initiative kept): Max acts first; his player's MainButton attacks, named
    maks = await open_app(browser, server, OTHER_ID, start)
    await press_main_button(maks, "Атака: Макс → Вероника")
    await gm.get_by_text("Атака: Макс → Вероника").first.wait_for(timeout=5000)
    assert await player.evaluate(MAIN_SHOWN) is False
    assert gm.problems == [] and player.problems == [] and maks.problems == []


async def shows(page, text: str) -> None:  # type: ignore[no-untyped-def]
    await page.wait_for_function(
        "(text) => (document.querySelector('[data-testid=chance]') || {}).textContent"
        "?.startsWith(text)",
        arg=text,
        timeout=5000,
    )


async def test_the_roller_shows_the_chance_of_success(browser, server, fight):  # noqa: F811
    start = startapp_token(fight, bot_token=TOKEN)
    page = await open_app(browser, server, PLAYER_ID, start)
    chance = page.get_by_test_id("chance")
    await chance.wait_for(timeout=5000)
    # 5 dice at difficulty 6 (the form's defaults): the engine's exact odds, rounded
    expected = f"{float(odds('p 5 6').probability('success')) * 100:.1f}".replace(".", ",")
    await shows(page, f"Шанс успеха: {expected} %")
    await page.locator("input[name='count']").fill("1")
    await shows(page, "Шанс успеха: 50,0 %")
    assert "провал: 10,0 %" in await chance.inner_text()
    await shoot(page, "storyteller-roller-chance-light")
    assert page.problems == []


async def test_a_player_saves_a_sheet_in_the_editor(browser, server, fight):  # noqa: F811
    page = await open_app(
        browser, server, PLAYER_ID, startapp_token(fight, bot_token=TOKEN), dark=True
    )
    await page.get_by_role("tab", name="Персонажи").click()
    editor = page.get_by_test_id("st-editor")
    await editor.wait_for(timeout=5000)
    # the library lists the player's own character only (saved for the fight), no template
    await editor.locator("[data-character]").first.wait_for(timeout=5000)
    assert await editor.locator("[data-character]").count() == 1
    assert await page.evaluate(CLOSING_ASKS) is False  # nothing to lose yet
    await editor.locator("textarea[name='sheet']").fill(EXAMPLE)
    await page.wait_for_function(CLOSING_ASKS, timeout=3000)  # unsaved: Telegram asks first
    await editor.locator("[data-command='check']").click()
    await editor.get_by_test_id("sheet-note").get_by_text("Лист читается без ошибок.").wait_for()
    # «Сохранить персонажа» is Telegram's MainButton, the screen's one primary action
    await press_main_button(page, "Сохранить персонажа")
    await editor.get_by_text("Сохранено: Вероника Штерн").wait_for(timeout=3000)
    await page.wait_for_function(f"() => !({CLOSING_ASKS})()", timeout=3000)  # saved
    await editor.locator("[data-character]").nth(1).wait_for(timeout=3000)
    await shoot(page, "storyteller-editor-player-dark")
    assert page.problems == []


async def test_the_gm_sets_the_games_options_in_the_editor(browser, server, fight):  # noqa: F811
    page = await open_app(browser, server, GM_ID, startapp_token(fight, bot_token=TOKEN))
    await page.get_by_role("tab", name="Персонажи").click()
    form = page.get_by_test_id("st-options")
    await form.wait_for(timeout=5000)
    assert (
        "Кевларовый жилет 3, штраф 1" in await form.locator("textarea[name='armor']").input_value()
    )
    assert await page.evaluate(CLOSING_ASKS) is False  # nothing to lose yet
    # «Это усложняет действие или делает его невозможным»: the GM picks «impossible»
    await form.locator("select[name='missing_ability']").select_option("impossible")
    await page.wait_for_function(CLOSING_ASKS, timeout=3000)  # unsaved: Telegram asks first
    await form.get_by_text("Ведущий проверяет каждую атаку").click()  # the switch's label
    assert not await form.locator("input[name='gm_review']").is_checked()
    # the form's own plain button: the MainButton is the character's (one primary action)
    assert await page.evaluate(MAIN_SHOWN) is False
    save = form.locator("[data-command='options']")
    assert await save.inner_text() == "Сохранить настройки"
    assert "primary-act" not in (await save.get_attribute("class") or "")
    await save.click()
    await form.get_by_text("Сохранено для следующих боёв.").wait_for(timeout=3000)
    await page.wait_for_function(f"() => !({CLOSING_ASKS})()", timeout=3000)  # saved
    options = await load_options(fight)
    assert options.missing_ability == "impossible" and not options.gm_review
    # the running fight keeps the copy it began with
    view = await st.current_fight(fight)
    assert view is not None and view.state.options.gm_review
    await shoot(page, "storyteller-options-gm-light")
    # the board, pushed the new state, tells the GM the change waits for the next fight
    await page.get_by_role("tab", name="Инициатива").click()
    await (
        page.get_by_test_id("options-changed")
        .get_by_text("Настройки игры изменены: они действуют со следующего боя.")
        .wait_for(timeout=5000)
    )
    assert page.problems == []


async def test_the_gm_edits_the_healing_and_aim_tables_in_the_form(browser, server, fight):  # noqa: F811
    for dark in (False, True):
        page = await open_app(
            browser, server, GM_ID, startapp_token(fight, bot_token=TOKEN), dark=dark
        )
        await page.get_by_role("tab", name="Персонажи").click()
        await page.get_by_test_id("st-healing").wait_for(timeout=5000)
        mode = "dark" if dark else "light"
        await shoot(page, f"storyteller-tables-gm-{mode}")
        tables = page.locator("[data-testid=st-healing], [data-testid=st-aim]")
        await tables.first.screenshot(path=str(ARTIFACTS / f"storyteller-healing-{mode}.png"))
        await tables.last.screenshot(path=str(ARTIFACTS / f"storyteller-aim-{mode}.png"))
        assert page.problems == []
    form = page.get_by_test_id("st-options")
    healing, aim = page.get_by_test_id("st-healing"), page.get_by_test_id("st-aim")
    # the defaults, as the form edits them; no way back to what is already the default
    cell = healing.get_by_label("Ранен, летальные", exact=True)
    assert await cell.input_value() == "1нед"
    assert await healing.locator("[data-command='reset-healing']").count() == 0
    # an absurd time is refused in Russian, naming it; nothing is saved
    await cell.fill("-3д")
    await form.locator("[data-command='options']").click()
    await form.get_by_role("alert").get_by_text("от 1 часа до 5 лет: -3д").wait_for(timeout=3000)
    assert (await load_options(fight)).healing == DEFAULT_HEALING
    await cell.fill("10д")
    # the seed's «Маленькая ... +2 // +1», made +3 // +2
    await aim.get_by_label("Маленькая, Сложность +", exact=True).fill("3")
    await aim.get_by_label("Маленькая, Урон +", exact=True).fill("2")
    await form.locator("[data-command='options']").click()
    await form.get_by_text("Сохранено для следующих боёв.").wait_for(timeout=3000)
    options = await load_options(fight)
    assert healing_hours(LETHAL, "injured", options) == 240
    assert options.aim_target("small") == AimTarget("small", 3, 2, "Маленькая")
    # back to the defaults, one table at a time
    await healing.locator("[data-command='reset-healing']").click()
    await form.get_by_text("Восстановлены значения по умолчанию.").wait_for(timeout=3000)
    await page.wait_for_function(
        "() => document.querySelector(\"[name='healing.lethal.injured']\").value === '1нед'",
        timeout=3000,
    )
    options = await load_options(fight)
    assert options.healing == DEFAULT_HEALING and options.aim_target("small").difficulty == 3  # type: ignore[union-attr]
    await aim.locator("[data-command='reset-aim']").click()
    await aim.locator("[data-command='reset-aim']").wait_for(state="detached", timeout=3000)
    assert (await load_options(fight)).aim_targets == SEED_AIM_TARGETS
    # the one console line: the browser's note of the refused save (400)
    assert len(page.problems) == 1 and "400" in page.problems[0], page.problems
