"""The text export of a whole duel (engine/duel/export.py)."""

from __future__ import annotations

from engine import texts
from engine.dice.rng import ScriptedRng
from engine.duel.commands import Publish, Submit
from engine.duel.decide import decide, evolve
from engine.duel.export import export_text
from engine.duel.state import DuelState, new_duel
from engine.receipt import make_receipt

from .six_turns import BJORN, TAKEDA, TURNS


def _played() -> DuelState:
    state = new_duel(BJORN, TAKEDA)
    for a, fa, b, fb in TURNS:
        for command, faces in (
            (Submit("a", tuple(a), "a1" * 16), fa),
            (Submit("b", tuple(b), "b2" * 16), fb),
            (Publish(state.turn), []),
        ):
            for e in decide(state, command, ScriptedRng(faces)):  # type: ignore[arg-type]
                state = evolve(state, e)
    return state


def test_the_whole_duel_as_russian_text() -> None:
    state = _played()
    text = export_text(state, lambda t, n: texts.translate("ru", t, n))
    assert text.startswith("Бьорн\nКласс: Рейдер\nАтака 2, Блок 1, Уклонение 0, Урон d8, Хп 24")
    for turn in range(1, 7):
        assert f"⚔️ Ход {turn}\n" in text
    assert "Бьорн: атака «Атака» слева — d10 6 → 8" in text
    assert "🛡 Бьорн → Такеда: парирование («Атака» сверху, 7) — " in text
    assert "☠️ Такеда погибает (-1 ХП)." in text
    # every revealed receipt is in the text with its salt, and checks out
    for published in state.history:
        for sub, reveal in zip(published.proposal.submissions, published.reveals, strict=True):
            assert reveal.receipt == make_receipt(sub.to_dict(), reveal.salt)
            assert f"квитанция {reveal.receipt}, соль {reveal.salt}" in text
    assert "{" not in text and "?" not in text  # every placeholder filled


def test_english_by_default() -> None:
    text = export_text(_played())
    assert "⚔️ Turn 2\n" in text and "— a successful block on the right side is a parry" in text
