"""The whole table in real Chromium: a GM and two players, each in their own page with a
validly signed initData, run a round of SWADE combat and a chase entirely by tapping in the
Mini App of the real process (bot.runner.run against the fake Bot API), while the group
chat tells the same story.

The browser twin of tests/bot/test_miniapp_table.py (its fixture and chat checks are reused).
Only the game itself is opened in the chat (/newgame, /join, /app); everything after that is
clicked. Dice are real random: who acts, who is hurt and who gets away is read from the
board, as the players would. After every tap the other two pages show the step (they received
the scene over their live socket and draw the same board) and the chat agrees.
Screenshots: test-artifacts/webapp/table-round-*.png and table-chase-*.png."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from tests.bot.test_miniapp_table import (
    ANYA,
    BORIS,
    GM,
    HOLLOW,
    ICHIGO,
    RUKIA,
    Table,
    able,
    chase_message_matches,
    chat_agrees,
    fight_message_matches,
    latest,
    owner_id,
    table,  # noqa: F401 (fixture)
)
from tests.support.fake_botapi import BOT_TOKEN
from tests.webapp.browser import ARTIFACTS
from tests.webapp.test_browser import browser  # noqa: F401 (fixture)
from webapp.auth import sign_init_data
from webapp.dev import DARK_THEME, LIGHT_THEME, launch_fragment

if TYPE_CHECKING:
    from playwright.async_api import Browser, Locator, Page

WAIT = 15000  # ms: the longest any page may take to show a step (2 busy cores: 5 s was once short)
Scene = dict[str, Any]


@dataclass
class Seat:
    """One person at the table: their Mini App page, what its console complained about and
    the frames its live socket received."""

    user: dict[str, Any]
    page: Page
    label: str
    problems: list[str] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.user["first_name"]


async def sit_down(
    chromium: Browser, game: Table, user: dict[str, Any], label: str, *, dark: bool = False
) -> Seat:
    """Open the game's Mini App as Telegram would: the startapp token of the chat's button
    and initData signed with the bot's token."""
    context = await chromium.new_context(
        viewport={"width": 390, "height": 844}, color_scheme="dark" if dark else "light"
    )
    page = await context.new_page()
    seat = Seat(user, page, label)
    page.on("console", lambda m: m.type == "error" and seat.problems.append(m.text))
    page.on("pageerror", lambda e: seat.problems.append(str(e)))
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: seat.frames.append(f)))
    who = {"id": user["id"], "first_name": user["first_name"], "language_code": "ru"}
    init = sign_init_data(BOT_TOKEN, who, int(time.time()), start_param=game.token)
    theme = DARK_THEME if dark else LIGHT_THEME
    fragment = launch_fragment(init, theme=theme, start_param=game.token)
    await page.goto(f"{game.base}/app/#{fragment}")
    await page.wait_for_selector("body[data-ready='1']", timeout=WAIT)
    return seat


async def open_tab(seat: Seat, name: str) -> None:
    """«Броски», «Инициатива», «Погоня» or «Персонажи»."""
    await seat.page.get_by_role("tab", name=name).click(timeout=WAIT)
    await seat.page.locator(".tab.on", has_text=name).wait_for(timeout=WAIT)


CONFIRM = "() => window.Telegram.WebView.receiveEvent('popup_closed', {button_id: 'ok'})"


MAIN_BUTTON = "() => window.Telegram.WebView.receiveEvent('main_button_pressed')"


async def press(seat: Seat, button: Locator | None, kind: str, *, confirm: bool = False) -> Any:
    """Tap a button that sends a command (None: Telegram's MainButton); the server's answer
    (the page shows it). `confirm`: the button asks first (Telegram's confirm popup), and the
    user says yes."""
    async with seat.page.expect_response(
        lambda r: r.request.method == "POST" and urlsplit(r.url).path.endswith(f"/{kind}"),
        timeout=WAIT,
    ) as answer:
        if button is None:
            await seat.page.evaluate(MAIN_BUTTON)
        else:
            await button.click(timeout=WAIT)
        if confirm:
            await seat.page.evaluate(CONFIRM)
    response = await answer.value
    data = await response.json()
    assert response.ok and data["ok"], data
    return data


# --- what the pages show --------------------------------------------------------------


def received(seat: Seat, kind: str, scene: Scene | None) -> bool:
    """The page's live socket has delivered `scene` (or a later state of it)."""
    for raw in reversed(seat.frames):
        msg = json.loads(raw)
        if msg.get("type") not in (kind, "snapshot"):
            continue
        got = msg.get(kind)
        if scene is None or got is None:
            return scene is None and got is None
        if got["stream"] == scene["stream"] and got["seq"] >= scene["seq"]:
            return True
    return False


async def order(seat: Seat) -> list[str]:
    return await seat.page.locator("li.fighter").evaluate_all(
        "items => items.map(li => li.dataset.combatant)"
    )


async def newest_log_entry(seat: Seat) -> str:
    return await seat.page.get_by_test_id("encounter-log").locator("li").first.inner_text()


async def tokens(seat: Seat) -> dict[str, int]:
    """Which card each token stands on, as drawn."""
    pairs = await seat.page.locator("li.chase-card [data-token]").evaluate_all(
        "ts => ts.map(t => [t.dataset.token, Number(t.closest('li').dataset.index)])"
    )
    return dict(pairs)


async def showing(seat: Seat, board: str) -> bool:
    return await seat.page.locator(f"[data-board={board}]").count() > 0


async def everyone_sees(seats: list[Seat], kind: str, scene: Scene | None) -> None:
    """Each page got `scene` over its socket, draws it (the fight's order, its log's newest
    entry; the chase's tokens) and shows no error."""
    deadline = time.monotonic() + WAIT / 1000
    for seat in seats:
        while not received(seat, kind, scene):
            assert time.monotonic() < deadline, (
                f"{seat.name} never got {kind} {scene and scene['seq']}"
            )
            await asyncio.sleep(0.02)
    newest: set[str] = set()
    for seat in seats:
        assert await seat.page.locator("p.error").count() == 0, seat.name
        if kind == "encounter" and scene is not None and await showing(seat, "initiative"):
            assert await order(seat) == [c["id"] for c in scene["combatants"]], seat.name
            acting = [c["id"] for c in scene["combatants"] if c["acting"]]
            drawn = seat.page.locator("li.fighter.acting")
            assert await drawn.evaluate_all("l => l.map(li => li.dataset.combatant)") == acting
            if scene["log"]:
                newest.add(await newest_log_entry(seat))
        if kind == "chase" and scene is not None and await showing(seat, "chase"):
            on_row = {
                p["id"]: p["position"]
                for p in scene["participants"]
                if p["status"] == "active" and not p["leader"]
            }
            assert await tokens(seat) == on_row, seat.name
    assert len(newest) <= 1, newest  # the same newest step on every page


async def press_main(seat: Seat, text: str, kind: str) -> Any:
    """Telegram's MainButton once it shows `text` (the page has no button of its own)."""
    shown = "t => (b => b?.isVisible && b.text === t)(window.Telegram?.WebApp?.MainButton)"
    await seat.page.wait_for_function(shown, arg=text, timeout=WAIT)
    return await press(seat, None, kind)


# --- the Characters tab -------------------------------------------------------------------


async def write_character(seat: Seat, sheet: str, *, template: bool = False) -> None:
    """Type the text block, wait for the live check to read it, Save."""
    page = seat.page
    await open_tab(seat, "Персонажи")
    await page.get_by_test_id("character-editor").wait_for(timeout=WAIT)
    if template:
        await page.locator("button[name=new-template]").click()
    await page.locator("textarea[name=sheet]").fill(sheet)
    await page.get_by_test_id("sheet-preview").locator(".trait").first.wait_for(timeout=WAIT)
    name = sheet.split(" (")[0]
    saved = await press_main(seat, "Сохранить", "characters")
    assert saved["character"]["template"] is template
    await page.locator("p[role=status]", has_text=f"Сохранено: {name}").wait_for(timeout=WAIT)
    await page.locator("[data-testid=character-list] li.on", has_text=name).wait_for(timeout=WAIT)


async def library(seat: Seat) -> list[str]:
    items = seat.page.locator("[data-testid=character-list] li strong")
    return await items.all_inner_texts()


# --- the initiative board -----------------------------------------------------------------


def gm_controls(seat: Seat) -> Locator:
    return seat.page.get_by_test_id("gm-controls")


def player_controls(seat: Seat) -> Locator:
    return seat.page.get_by_test_id("player-controls")


async def start_fight(gm: Seat) -> Scene:
    data = await press_main(gm, "Начать бой", "encounter")  # Telegram's MainButton
    return data["encounter"]


async def add_to_fight(gm: Seat, name: str) -> Scene:
    """«Добавить в бой»: pick the character or template, Add."""
    form = gm_controls(gm).locator(".row.add")
    await form.locator("select[name=library] option", has_text=name).wait_for(
        state="attached", timeout=WAIT
    )
    await form.locator("select[name=library]").select_option(label=name)
    data = await press(gm, form.locator("[data-command=add]"), "encounter")
    return data["encounter"]


async def gm_next(gm: Seat) -> Scene:
    """The GM's «Раздать» / «Дальше»: Telegram's MainButton (the page has no button of its own)."""
    assert await gm_controls(gm).locator("[data-command=next]").count() == 0
    shown = "() => window.Telegram?.WebApp?.MainButton?.isVisible"
    await gm.page.wait_for_function(shown, timeout=WAIT)
    data = await press(gm, None, "encounter")
    return data["encounter"]


async def end_turn(seat: Seat) -> Scene:
    """A player's «Закончить ход»: Telegram's MainButton."""
    return (await press_main(seat, "Закончить ход", "encounter"))["encounter"]


async def go_on_hold(seat: Seat) -> Scene:
    button = player_controls(seat).get_by_role("button", name="Ожидание")
    return (await press(seat, button, "encounter"))["encounter"]


async def act_from_hold(seat: Seat) -> Scene:
    button = player_controls(seat).get_by_role("button", name="Действовать")
    return (await press(seat, button, "encounter"))["encounter"]


async def attack(seat: Seat, actor: str, target: str) -> Scene:
    """The action panel: «Атака», who acts (the GM has a choice), the target, Fighting,
    the button."""
    panel = seat.page.get_by_test_id("action-panel")
    await panel.wait_for(timeout=WAIT)
    await panel.locator("select[name=action]").select_option("attack")
    if await panel.locator("select[name=actor]").count():
        await panel.locator("select[name=actor]").select_option(actor)
    await panel.locator("select[name=target]").select_option(target)
    await panel.locator("select[name=skill]").select_option("fighting")
    await panel.locator("input[name=damage-dice]").fill("str+d6")
    data = await press(seat, panel.locator("button[name=do-action]"), "encounter")
    return data["encounter"]


async def soak_wounds(seat: Seat) -> Scene:
    """«Поглотить (бенни)» in the box of waiting Wounds."""
    box = seat.page.locator("[data-board=initiative] .pending")
    return (await press(seat, box.locator("[data-command=soak]"), "encounter"))["encounter"]


async def take_wounds(seat: Seat) -> Scene:
    """«Принять» in the box of waiting Wounds."""
    box = seat.page.locator("[data-board=initiative] .pending")
    return (await press(seat, box.locator("[data-command=take]"), "encounter"))["encounter"]


# --- the chase board ----------------------------------------------------------------------


async def start_chase(gm: Seat) -> Scene:
    data = await press(gm, gm.page.locator("[data-command=chase-start]"), "chase")
    return data["chase"]


async def add_to_chase(gm: Seat, who: str, side: str, card: int) -> Scene:
    """«Добавить в погоню»: who, the side, the card (numbered from 1), Add."""
    form = gm.page.get_by_test_id("gm-chase-controls").locator(".row.add")
    await form.locator("select[name=chase-who]").select_option(who)
    await form.locator("input[name=chase-side]").fill(side)
    await form.locator("input[name=chase-card]").fill(str(card))
    return (await press(gm, form.locator("[data-command=chase-add]"), "chase"))["chase"]


async def place_token(gm: Seat, who: str, card: int) -> Scene:
    """Tap the token, then the card to put it on."""
    await gm.page.locator(f"[data-token={who}]").click(timeout=WAIT)
    face = gm.page.locator(f"li.chase-card[data-index='{card - 1}'] .chase-face")
    return (await press(gm, face, "chase"))["chase"]


async def gm_chase(gm: Seat, command: str) -> Scene:
    """The GM's «Новый раунд» (chase-round), «Ход ходящего бойца» (chase-turn)…"""
    button = gm.page.get_by_test_id("gm-chase-controls").locator(f"[data-command={command}]")
    return (await press(gm, button, "chase"))["chase"]


async def move_forward(seat: Seat) -> Scene:
    button = seat.page.get_by_test_id("player-chase-controls").locator("[data-command=forward]")
    return (await press(seat, button, "chase"))["chase"]


async def flee(seat: Seat) -> Scene:
    button = seat.page.get_by_test_id("player-chase-controls").locator("[data-command=flee]")
    return (await press(seat, button, "chase"))["chase"]


async def gm_decides(gm: Seat) -> Scene:
    """A critical failure waits for the GM: «теряет остаток хода» (or a Bump: back)."""
    box = gm.page.locator("[data-board=chase] .pending")
    await box.wait_for(timeout=WAIT)
    choice = box.get_by_role("button", name="теряет остаток хода")
    if not await choice.count():
        choice = box.locator("[data-command=critical], [data-command=resolve]")
    return (await press(gm, choice.first, "chase"))["chase"]


async def end_chase(gm: Seat) -> None:
    data = await press(gm, gm.page.locator("[data-command=chase-end]"), "chase", confirm=True)
    assert data["chase"] is None


# --- reading the boards (as the GM's page has them) ----------------------------------------


def acting_one(enc: Scene) -> Scene | None:
    return next((c for c in enc["combatants"] if c["acting"]), None)


def member(enc: Scene, character: str) -> Scene:
    return next(m for c in enc["combatants"] for m in c["members"] if m["id"] == character)


def runner(ch: Scene, pid: str) -> Scene:
    return next(p for p in ch["participants"] if p["id"] == pid)


def open_turn(ch: Scene, pid: str) -> Scene | None:
    """The participant's chase turn, if it may still act in it."""
    turn = next((t for t in ch["turns"] if t["participant"] == pid), None)
    waiting = any(x["kind"] == "critical" and x["target"] == pid for x in ch["pending"])
    if turn is None or turn["lost"] or waiting or runner(ch, pid)["status"] != "active":
        return None
    return turn


def nearest_foe(ch: Scene, pid: str) -> int | None:
    cards = [d["cards"] for d in ch["distances"] if pid in (d["a"], d["b"])]
    return min(cards, default=None)


def fight_message_agrees(chat: Table, enc: Scene) -> None:
    """The chat's fight message matches the board; while Wounds wait, its last line says
    whose and how many (instead of listing the order again)."""
    pending = enc["pending"]
    if pending is None:
        fight_message_matches(chat, enc)
        return
    last = latest(chat, "⚔️ <b>Бой").split("\n")[-1]
    name = member(enc, pending["character"])["name"]
    assert last.startswith(f"⏳ {name}: {pending['wounds']} Ран"), last


async def shoot(seats: list[Seat], moment: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for seat in seats:
        await seat.page.evaluate("window.scrollTo(0, 0)")
        path = ARTIFACTS / f"table-{moment}-{seat.label}.png"
        await seat.page.screenshot(path=str(path), full_page=True)


# --- the game -----------------------------------------------------------------------------


async def test_a_table_runs_a_round_and_a_chase_by_tapping_in_the_mini_app(
    table: Table,  # noqa: F811
    browser: Browser,  # noqa: F811
) -> None:
    # The chat opens the game and hands out the Mini App's link.
    await table.say(GM, "/newgame savage Пустота")
    await table.say(ANYA, "/join")
    await table.say(BORIS, "/join")
    [button] = (await table.say(GM, "/app")).buttons()
    [table.token] = parse_qs(urlsplit(button["url"]).query)["startapp"]

    gm = await sit_down(browser, table, GM, "gm-light")
    anya = await sit_down(browser, table, ANYA, "anya-dark", dark=True)
    boris = await sit_down(browser, table, BORIS, "boris-light")
    seats = [gm, anya, boris]
    seat_of = {GM["id"]: gm, ANYA["id"]: anya, BORIS["id"]: boris}

    async def board() -> Scene:
        return (await table.call(GM, "GET", "encounter"))["encounter"]

    async def chase_board() -> Scene:
        return (await table.call(GM, "GET", "chase"))["chase"]

    async def step(kind: str, scene: Scene | None) -> None:
        """Every page shows the step; the chat's board message agrees with the board."""
        await everyone_sees(seats, kind, scene)
        if kind == "encounter":
            await chat_agrees(table, fight_message_agrees, await board())
        elif scene is not None:
            await chat_agrees(table, chase_message_matches, await chase_board())

    # Characters: each player writes their own, the GM an NPC template.
    await write_character(anya, ICHIGO)
    await write_character(boris, RUKIA)
    await write_character(gm, HOLLOW, template=True)
    assert await library(boris) == ["Рукия"]  # nobody else's sheets
    assert await library(gm) == ["Ичиго", "Пустой", "Рукия"]

    # The GM sets the fight up; every page follows without a reload.
    for seat in seats:
        await open_tab(seat, "Инициатива")
    mark = table.api.mark()
    await step("encounter", await start_fight(gm))
    for name in ("Ичиго", "Рукия", "Пустой"):
        await step("encounter", await add_to_fight(gm, name))
    await table.told(mark, "➕ Ичиго в бою", "➕ Рукия в бою", "➕ Пустой в бою")
    assert await player_controls(anya).count() == 1 and await gm_controls(anya).count() == 0

    enc = await gm_next(gm)  # «Раздать»
    await step("encounter", enc)
    assert await order(anya) == await order(boris) == await order(gm)
    assert await gm.page.locator("li.fighter .pc[data-card]").count() == 3
    first = acting_one(enc)
    assert first is not None
    await table.told(mark, "<b>Раунд 1: карты розданы.</b>", f"▶️ Ход: <b>{first['name']}</b>")

    # Round 1: on each turn the fighter's controller taps in their own page.
    held = False
    for _ in range(12):
        enc = await board()
        if enc["round"] != 1:
            break
        mark = table.api.mark()
        acting = acting_one(enc)
        if acting is None:  # the last one went on Hold: the GM deals the next round
            await step("encounter", await gm_next(gm))
            continue
        seat = seat_of[acting["members"][0]["owner"] or GM["id"]]
        for other in (anya, boris):  # not their turn: no «Закончить ход» for them
            if other is not seat:
                await other.page.locator("li.fighter.acting").wait_for(timeout=WAIT)
                assert await other.page.get_by_role("button", name="Закончить ход").count() == 0
        if acting["id"] == "rukiya" and not held:
            await step("encounter", await go_on_hold(boris))
            await table.told(mark, "⏸ Рукия уходит в Ожидание.")
            held = True
            continue
        target = "ichigo" if acting["id"] == "pustoy" else "pustoy"
        if able(enc, acting["id"]) and able(enc, target):
            enc = await attack(seat, acting["id"], target)
            newest = enc["log"][-1]
            [item] = [i for i in newest["items"] if "roll" in i["params"]][:1]
            assert newest["names"][item["params"]["name"]] == acting["name"], item
            roll = item["params"]["roll"]
            await step("encounter", enc)
            await table.told(mark, f"<b>{roll['total']}</b> против {roll['tn']}")
            assert acting["name"] in await newest_log_entry(anya)
        soaked = False
        for _ in range(3):  # Wounds waiting: their owner soaks once with a benny, or takes them
            if not enc["pending"]:
                break
            wounded = enc["pending"]["character"]
            owner = seat_of[owner_id(enc, wounded) or GM["id"]]
            for other in seats:  # everyone sees the Wounds wait; only their owner decides
                box = other.page.locator("[data-board=initiative] .pending")
                await box.wait_for(timeout=WAIT)
                buttons = 2 if other in (owner, gm) else 0
                assert await box.locator("[data-command]").count() == buttons, other.name
            if owner is not gm and not soaked and member(enc, wounded)["bennies"] > 0:
                enc = await soak_wounds(owner)
                soaked = True
            else:
                enc = await take_wounds(owner)
                await table.told(mark, "получает")
            await step("encounter", enc)
        assert not enc["pending"]
        enc = await (gm_next(gm) if seat is gm else end_turn(seat))
        await step("encounter", enc)
        now = acting_one(enc)
        if enc["round"] == 1 and now is not None and any(m["owner"] for m in now["members"]):
            # a player's turn is pinged; an NPC's is on the board alone (docs/rules/chat.md)
            await table.told(mark, f"▶️ Ход: <b>{now['name']}</b>")
    assert held
    assert (await board())["round"] == 2, "round 1 never ended"
    await table.told(mark, "<b>Раунд 2: карты розданы.</b>")
    await shoot(seats, "round")

    # The chase: the GM lays the row and places everyone with the board's controls.
    for seat in seats:
        await open_tab(seat, "Погоня")
    mark = chased = table.api.mark()
    ch = await start_chase(gm)
    await step("chase", ch)
    await step("chase", await add_to_chase(gm, "ichigo", "беглецы", 1))
    await step("chase", await place_token(gm, "ichigo", 7))
    await step("chase", await add_to_chase(gm, "rukiya", "беглецы", 6))
    await step("chase", await add_to_chase(gm, "pustoy", "пустые", 2))
    await step("chase", await gm_chase(gm, "chase-round"))
    ch = await gm_chase(gm, "chase-turn")  # the fighter acting now takes its chase turn
    await step("chase", ch)
    await table.told(mark, "🏃 Погоня начинается: в ряду карт — 9.", "🏃 Раунд погони 1.")
    assert {p["id"]: p["position"] for p in ch["participants"]} == {
        "ichigo": 6,
        "rukiya": 5,
        "pustoy": 1,
    }

    # Turns follow the fight's cards: the runners move forward and try to get away, the
    # Hollow watches; a turn ends with the fight's «Закончить ход» / «Дальше».
    asked = from_hold = False
    for _ in range(24):
        ch, enc = await chase_board(), await board()
        if ch["ended"] or any(p["status"] == "escaped" for p in ch["participants"]):
            break
        mark = table.api.mark()
        acting = acting_one(enc)
        if acting is None:
            await open_tab(gm, "Инициатива")
            await step("encounter", await gm_next(gm))
            await open_tab(gm, "Погоня")
            continue
        hold = next(c for c in enc["combatants"] if c["id"] == "rukiya")["hold"]
        if hold and not asked and acting["id"] != "rukiya":
            # Рукия's Hold from round 1: Борис asks to act; nobody's turn is cut short, she
            # goes right after the current one (seed 000 lines 19-20).
            await open_tab(boris, "Инициатива")
            enc = await act_from_hold(boris)
            await step("encounter", enc)
            assert enc["current"] == acting["id"] and enc["queued"] == ["rukiya"]
            await table.told(mark, "⏭ Рукия ходит сразу после текущего хода.")
            await open_tab(boris, "Погоня")
            asked = True
            continue
        if asked and not from_hold and acting["id"] == "rukiya":
            # her turn came before the next card; in the chase it opened without a card
            await table.told(chased, "🏃 Рукия действует из Ожидания")
            from_hold = True
        seat = seat_of[acting["members"][0]["owner"] or GM["id"]]
        pid = acting["id"]
        if seat is not gm and (turn := open_turn(ch, pid)) and not turn["changed_position"]:
            await step("chase", await move_forward(seat))
            await table.told(mark, f"🏃 {acting['name']} меняет позицию")
        for _ in range(3):  # critical failures (or Bumps) wait for the GM's choice
            ch = await chase_board()
            if not ch["pending"]:
                break
            await step("chase", await gm_decides(gm))
        distance = nearest_foe(ch, pid)
        if seat is not gm and open_turn(ch, pid) and distance is not None and distance >= 4:
            await step("chase", await flee(seat))
            await table.told(mark, f"🏁 {acting['name']} пытается оторваться")
            for _ in range(3):
                ch = await chase_board()
                if not ch["pending"]:
                    break
                await step("chase", await gm_decides(gm))
        if ch["ended"] or any(p["status"] == "escaped" for p in ch["participants"]):
            break
        await open_tab(seat, "Инициатива")
        await step("encounter", await (gm_next(gm) if seat is gm else end_turn(seat)))
        await open_tab(seat, "Погоня")
        await step("chase", await chase_board())

    assert asked  # (her turn may not come if the chase ended first)
    ch = await chase_board()
    await step("chase", ch)
    gone = [p["name"] for p in ch["participants"] if p["status"] == "escaped"]
    for name in gone:
        for seat in seats:
            gone_line = seat.page.locator(".gone", has_text=f"{name} — побег удался")
            await gone_line.wait_for(timeout=WAIT)
    await shoot(seats, "chase")

    # The GM closes the chase with the board's end button; the chat says it is over.
    await end_chase(gm)
    await everyone_sees(seats, "chase", None)
    await table.told(chased, "Погоня окончена")  # by itself when both got away, or now
    await chat_agrees(table, chase_message_matches, ch)
    for seat in seats:
        await seat.page.get_by_text("Погони сейчас нет.").wait_for(timeout=WAIT)
        assert seat.problems == [], (seat.name, seat.problems)
