"""Every keyboard the bot sends fits a phone (issue 27, item 1): the keyboards of a played
session of each system, collected from the Bot API calls (sent and edited), are drawn with
the playground's own stylesheet in headless Chromium at 390 px — one line per button, a
row's buttons sharing the 340-px message width (docs/playground.md, «How the playground
draws buttons») — and each label's width, measured in the page's real font, is compared with the
room its button leaves it. A label wider than its room is one Telegram cuts with «…».

Savage Worlds combat and chase, the tapped Storyteller table and the duel's forms must fit
(the duel form names each kind of action on a row of its own, its sides below, short)."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest

from bot.playground.demo import lay_out
from tests.bot.playground.conftest import GM, VERA, Served
from tests.bot.playground.conftest import served as served  # the fixture
from tests.bot.systems.savage import session as savage_session
from tests.bot.systems.savage.test_combat import Table
from tests.bot.systems.storyteller.test_table import play_table
from tests.support.telegram import TelegramDriver
from tests.webapp.browser import ARTIFACTS
from tests.webapp.test_browser import browser  # noqa: F401 (fixture)

STYLESHEET = Path(__file__).resolve().parents[3] / "bot/playground/static/play.css"
PHONE = {"width": 390, "height": 844}
SHOTS = ARTIFACTS.parent / "playground"
Keyboard = list[list[str]]  # rows of labels

# The page: the playground's chat column with one bot message per keyboard, built as
# play.js's renderMessage/renderKeyboard build it (li.msg.with-keyboard > .keyboard >
# .kb-row > button.kb-button > span.label).
PAGE = """<!doctype html><html lang="ru" data-scheme="light"><head><meta charset="utf-8">
<style>{css}</style></head><body><div class="play"><main class="chat">
<ol class="messages">{messages}</ol></main></div></body></html>"""

# For each label: its text, the buttons in its row, its width in the page's font (a Range
# around the text) and the room its button leaves it (the label box, as the page lays out).
MEASURE = """() => [...document.querySelectorAll(".kb-button .label")].map((label) => {
  const range = document.createRange();
  range.selectNodeContents(label);
  const row = label.closest(".kb-row").children.length;
  return [label.textContent, row, range.getBoundingClientRect().width, label.clientWidth,
          label.closest(".keyboard").getBoundingClientRect().width];
})"""


def keyboards_of(calls: list[Any]) -> list[Keyboard]:
    """Each distinct inline keyboard of the sent or edited messages among `calls`."""
    seen: dict[str, Keyboard] = {}
    for markup in calls:
        rows = (markup or {}).get("inline_keyboard") or []
        keyboard = [[str(b.get("text", "")) for b in row] for row in rows]
        if keyboard:
            seen.setdefault(json.dumps(keyboard, ensure_ascii=False), keyboard)
    return list(seen.values())


def page(keyboards: list[Keyboard]) -> str:
    def message(keyboard: Keyboard) -> str:
        rows = "".join(
            '<div class="kb-row">'
            + "".join(
                f'<button class="kb-button"><span class="label">{html.escape(label)}</span>'
                "</button>"
                for label in row
            )
            + "</div>"
            for row in keyboard
        )
        return (
            '<li class="msg with-keyboard"><div class="bubble">…</div>'
            f'<div class="keyboard">{rows}</div></li>'
        )

    css = STYLESHEET.read_text(encoding="utf-8")
    return PAGE.format(css=css, messages="".join(message(k) for k in keyboards))


async def cut_labels(browser: Any, keyboards: list[Keyboard], name: str) -> list[str]:  # noqa: F811
    """The labels Telegram would cut at 390 px, as «label (n in a row: width > room px)»;
    the keyboards drawn go to test-artifacts/playground/keyboards-`name`.png (and .json)."""
    assert keyboards, "no keyboard was collected"
    context = await browser.new_context(viewport=PHONE)
    try:
        tab = await context.new_page()
        await tab.set_content(page(keyboards))
        measured = await tab.evaluate(MEASURE)
        SHOTS.mkdir(parents=True, exist_ok=True)
        await tab.screenshot(path=SHOTS / f"keyboards-{name}.png", full_page=True)
        text = json.dumps(keyboards, ensure_ascii=False, indent=1)
        (SHOTS / f"keyboards-{name}.json").write_text(text, encoding="utf-8")
    finally:
        await context.close()
    widths = {round(width) for *_, width in measured}
    assert widths == {340}, widths  # the message width docs/playground.md gives a phone
    return [
        f"{text} ({row} in a row: {width:.0f} > {room} px)"
        for text, row, width, room, _ in measured
        if width > room + 0.5
    ]


async def test_the_savage_combat_and_chase_fit(
    tg: TelegramDriver,
    browser: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the scripted table session, tapped: one fight round, then two chase rounds
    monkeypatch.setattr(savage_session, "FIGHT_ROUNDS", 1)
    monkeypatch.setattr(savage_session, "CHASE_ROUNDS", 2)
    await savage_session.run_session(tg, taps=True)
    calls = Table(tg).api.calls
    keyboards = keyboards_of([c.reply_markup for c in calls])
    labels = {label for k in keyboards for row in k for label in row}
    for wanted in ("Атака", "Конец хода", "Доска вниз", "Вперёд", "Принять"):  # fight, chase
        assert any(wanted in label for label in labels), wanted
    assert await cut_labels(browser, keyboards, "savage") == []


async def demo_keyboards(served: Served, system: str, user: int) -> list[Keyboard]:
    """The keyboards the page was told of (every message and edit) in `user`'s private
    chat while the demo of `system` was laid out."""
    await lay_out(served.play, system)
    told = [e["message"] for e in served.events if e["type"] == "message"]
    return keyboards_of([{"inline_keyboard": m.get("keyboard")} for m in told if m["chat"] == user])


async def test_the_storyteller_table_fits(tg: TelegramDriver, browser: Any) -> None:  # noqa: F811
    # the tapped table session: the board, the attack pickers (group and the GM's chat), the
    # defenses a player chooses from, the GM's review
    await play_table(tg)
    keyboards = keyboards_of([c.reply_markup for c in tg.api.calls])
    labels = {label for k in keyboards for row in k for label in row}
    for wanted in (
        "Опубликовать",
        "Полная защита",
        "Без защиты",
        "Атака",
        "Кулак",
        "сбоку",
        "🎯 Очень маленькая",
        "2 действия: 4+3",
        "Доска вниз",
    ):
        assert any(wanted in label for label in labels), wanted
    assert await cut_labels(browser, keyboards, "storyteller") == []


async def rules_keyboards(served: Served) -> list[Keyboard]:
    """`/duel правила` (the GM's) in the duel demo's topic: its keyboard as sent, then after
    one tap on each reading (each shown at another of its values)."""
    chat, thread = await lay_out(served.play, "duel")
    asked = await served.play.write(GM, chat.id, "/duel правила", thread=thread)
    [rules] = [m for m in served.bot_messages(chat.id, after=asked.id) if m.reply_markup]
    rows = rules.reply_markup["inline_keyboard"]
    for r, row in enumerate(rows):
        for c, _button in enumerate(row):
            await served.play.press(GM, chat.id, rules.id, r, c)
    told = [e["message"] for e in served.events if e["type"] == "message"]
    shown = [m for m in told if m["chat"] == chat.id and m["id"] == rules.id]
    assert len(shown) > 1 and served.alerts() == []  # sent, then edited by the taps
    return keyboards_of([{"inline_keyboard": m.get("keyboard")} for m in shown])


async def test_the_duel_form_fits(served: Served, browser: Any) -> None:  # noqa: F811
    keyboards = await demo_keyboards(served, "duel", VERA)
    keyboards += await demo_keyboards(served, "duel", GM)
    assert len(keyboards) > 3  # the player's form step by step, and the GM's
    keyboards += await rules_keyboards(served)  # the readings' keyboard (issue 27)
    assert await cut_labels(browser, keyboards, "duel") == []
