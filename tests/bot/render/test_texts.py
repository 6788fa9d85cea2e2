"""Descriptions as chat HTML: the shared sentence in the update's language, params the chat's
way (escaped, names, cards from 1, labels)."""

from __future__ import annotations

from aiogram.utils.i18n import I18n

from bot.i18n import translator
from bot.render import texts
from engine.describe import Description
from engine.savage.chase import ChaseError


def test_a_sentence_in_both_languages_with_its_plural(i18n: I18n) -> None:
    wounded = Description("encounter.wounded", {"name": "ichigo", "count": 2})
    name = {"ichigo": "Ичиго <Ягами>"}.get
    with translator("ru", i18n):
        assert (
            texts.text(wounded, lambda i: f"«{name(i)}»") == "🩸 «Ичиго <Ягами>» получает 2 Раны."
        )
        five = Description("encounter.wounded", {"name": "x", "count": 5})
        assert texts.text(five) == "🩸 x получает 5 Ран."
    with translator("en", i18n):
        assert texts.text(wounded, lambda i: "Ichigo") == "🩸 Ichigo takes 2 Wounds."


def test_params_are_escaped_cards_count_from_one_and_labels_are_translated(i18n: I18n) -> None:
    with translator("ru", i18n):
        bad = ChaseError("bad_position", position=11, last=8)
        assert texts.error_text(bad) == "Карты 12 нет: в ряду карт — 9."
        side = ChaseError("unknown_side", side="<b>злодеи</b>")
        assert texts.error_text(side) == "Такой стороны в погоне нет: &lt;b&gt;злодеи&lt;/b&gt;"
        out = Description("encounter.incapacitated", {"name": "x", "outcome": "dead"})
        assert texts.text(out) == "☠️ x погибает"
        odd = Description("encounter.incapacitated", {"name": "x", "outcome": "no_such"})
        assert texts.text(odd) == "☠️ x теряет дееспособность"  # the family's «other»
        assert (
            texts.text(Description("rule.unknown_trait", {})) == "Неизвестный атрибут или навык: ?"
        )
