"""The chat review shows the adjusted die (issue 26 item 4): its lines and its buttons give
the face the GM set («🎲 Такеда 1: 10»), not the sealed one."""

from __future__ import annotations

from bot.i18n import translator
from bot.systems.duel.render.review import review_keyboard, review_text
from tests.engine.duel.test_adjusted import _adjusted


def test_the_review_and_its_buttons_show_the_adjusted_die() -> None:
    state = _adjusted()
    with translator("ru"):
        text = review_text(state)
        buttons = [
            b.text for row in review_keyboard(state, 1, "duel:5:1").inline_keyboard for b in row
        ]
    assert "d10 10 → 11" in text and "d10 7 → 8" not in text
    assert "🎲 Такеда 1: 10" in buttons and "🎲 Такеда 1: 7" not in buttons
