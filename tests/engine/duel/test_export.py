"""The text export of a whole duel (engine/duel/export.py)."""

from __future__ import annotations

from engine import texts
from engine.dice.rng import ScriptedRng
from engine.duel import Deadline
from engine.duel.commands import DefaultTurn, PassDeadline, Publish, SetDeadline, Submit
from engine.duel.decide import decide, evolve
from engine.duel.export import export_text
from engine.duel.state import DuelState, new_duel
from engine.receipt import make_receipt, short_code, verify

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
    assert text.startswith("Бьорн\nКласс: Рейдер\nАтака 2, Блок 1, Уклонение 0, Урон d8, ХП 24")
    for turn in range(1, 7):
        assert f"⚔️ Ход {turn}\n" in text
    assert "Бьорн: атака «Атака» слева — d10 6 → 8" in text
    assert "🛡 Бьорн → Такеда: парирование («Атака» сверху, 7) — " in text
    assert "☠️ Такеда погибает (-1 ХП)." in text
    # every revealed receipt is one short line that says it checks out, and it does
    for published in state.history:
        for sub, reveal in zip(published.proposal.submissions, published.reveals, strict=True):
            assert reveal.receipt == make_receipt(sub.committed(), reveal.salt)
            name = {"a": "Бьорн", "b": "Такеда"}[sub.fighter]
            line = f"🔓 {name}: квитанция {short_code(reveal.receipt)} ✓ сходится"
            assert line in text and reveal.salt not in text
    assert "{" not in text and "?" not in text  # every placeholder filled


def test_english_by_default() -> None:
    text = export_text(_played())
    assert "⚔️ Turn 2\n" in text and "— a successful block on the right side is a parry" in text


T0 = 1_800_000_000.0  # a fixed clock
DEFAULT_LINE = "🛡 Такеда: ход не прислан в срок, запечатана защита по умолчанию."


def _with_a_default_defense() -> DuelState:
    """Turn 1 as scripted; turn 2 Такеда misses the deadline and the GM seals the default
    defense (the d3 picks the side, 3: top, then full defense's two d10)."""
    state = new_duel(BJORN, TAKEDA)
    a1, fa1, b1, fb1 = TURNS[0]
    a2, fa2, _, _ = TURNS[1]
    for command, faces in (
        (SetDeadline(Deadline(24), now=T0), []),
        (Submit("a", tuple(a1), "a1" * 16), fa1),
        (Submit("b", tuple(b1), "b2" * 16), fb1),
        (Publish(1, now=T0), []),
        (Submit("a", tuple(a2), "a3" * 16), fa2),
        (PassDeadline(2, now=T0 + 25 * 3600, salt="c4" * 16), []),
        (DefaultTurn(2, "b", "d5" * 16), [3, 5, 6]),
        (Publish(2, now=T0 + 26 * 3600), []),
    ):
        for e in decide(state, command, ScriptedRng(faces)):  # type: ignore[arg-type]
            state = evolve(state, e)
    return state


def test_the_export_marks_a_default_defense() -> None:
    state = _with_a_default_defense()
    first, second = state.history
    assert [r.default for r in first.reveals] == [False, False]
    assert [r.default for r in second.reveals] == [False, True]
    text = export_text(state, lambda t, n: texts.translate("ru", t, n))
    turn1, turn2 = text.split("⚔️ Ход 1\n")[1].split("⚔️ Ход 2\n")
    # the default defense is marked next to Такеда's actions of turn 2 only
    assert DEFAULT_LINE not in turn1 and turn2.count(DEFAULT_LINE) == 1
    lines = turn2.split("\n")
    assert lines[lines.index(DEFAULT_LINE) + 1].startswith("Такеда: глухая оборона")
    # marking it changes nothing of the receipt: it still checks out
    sub, reveal = second.proposal.submissions[1], second.reveals[1]
    assert verify(reveal.receipt, sub.committed(), reveal.salt)
    assert f"🔓 Такеда: квитанция {short_code(reveal.receipt)} ✓ сходится" in turn2
    # the English export says it too; the scripted duel without a deadline never does
    english = export_text(state)
    assert english.count("🛡 Такеда: the turn was not sent in time, a default defense") == 1
    assert "default defense" not in export_text(_played())
