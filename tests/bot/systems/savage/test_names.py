"""Names typed in chat: a group's count written ×, x (Latin), х (Cyrillic); a name that
ends in х is still a name."""

from __future__ import annotations

from bot.systems.savage.combat import names
from engine.dice.rng import ScriptedRng
from engine.savage import AddCombatant, Encounter, decide, replay
from tests.engine.savage.helpers import char, group

HOLLOW = "Пустой (Статист, ×2) Драка d6"


def encounter() -> Encounter:
    state = Encounter()
    for cmd in (
        AddCombatant("pustoy", "Пустой ×2", group(HOLLOW, "pustoy")),
        AddCombatant("monah-2", "Монах 2", (char("Монах 2 (Дикий) Драка d6", "monah-2"),)),
    ):
        state = replay(decide(state, cmd, ScriptedRng([])), state)
    return state


def test_a_count_mark_in_any_alphabet_names_the_group() -> None:
    state = encounter()
    for typed in ("Пустой ×2", "пустой x2", "Пустой х2", "Пустой *2", "Пустой×2"):
        ref = names.exact(state, typed)
        assert ref is not None and ref.combatant.id == "pustoy" and ref.character is None, typed


def test_a_name_ending_in_kha_is_a_name() -> None:
    ref = names.exact(encounter(), "Монах 2")
    assert ref is not None and ref.combatant.id == "monah-2"
    assert names.exact(encounter(), "Пустой 7") is None
