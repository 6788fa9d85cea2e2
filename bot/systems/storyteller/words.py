"""The words of a typed attack: `/attack Макс Бандит 1 нож парир фланг` — the attacker (a
player's own fighter may be left out), the target, then the weapon and the flags in any
order."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.systems.storyteller.names import norm
from engine.storyteller.combat import BLOCK, DODGE, PARRY
from engine.storyteller.commands import INTERRUPT_POINT, INTERRUPT_ROLL
from engine.storyteller.maneuvers import FLANK, REAR, Situation

DEFENSES = {"блок": BLOCK, "уворот": DODGE, "уклонение": DODGE, "парирование": PARRY}
INTERRUPTS = {"прерывание": INTERRUPT_ROLL, "прерывание-очко": INTERRUPT_POINT}
AIMS = {"средняя": "medium", "маленькая": "small", "крошечная": "tiny"}
END_WORDS = ("конец", "end", "стоп", "закончить")


@dataclass
class AttackWords:
    weapon: str | None = None
    defense: str | None = None
    interrupt: str | None = None
    situation: Situation = field(default_factory=Situation)


def _prefixed(word: str, table: dict[str, str]) -> str | None:
    found = {v for k, v in table.items() if len(word) >= 4 and k.startswith(word)}
    exact = table.get(word)
    return exact or (found.pop() if len(found) == 1 else None)


def attack_words(words: list[str]) -> AttackWords:
    out = AttackWords()
    s = out.situation
    weapon: list[str] = []
    i = 0
    while i < len(words):
        w = norm(words[i])
        if w in INTERRUPTS:
            out.interrupt = INTERRUPTS[w]
        elif (d := _prefixed(w, DEFENSES)) is not None:
            out.defense = d
        elif w == "фланг":
            s = replace(s, side=FLANK)
        elif w == "тыл":
            s = replace(s, side=REAR)
        elif w == "вслепую":
            s = replace(s, blind=True)
        elif w in ("тесно", "без-места"):
            s = replace(s, space=False)
        elif w in ("св", "воля"):
            s = replace(s, willpower=True)
        elif w.startswith("спец"):
            s = replace(s, specialty=True)
        elif w == "прицел" and i + 1 < len(words) and norm(words[i + 1]) in AIMS:
            i += 1
            s = replace(s, aim=AIMS[norm(words[i])])
        else:
            weapon.append(words[i])
        i += 1
    out.situation = s
    out.weapon = " ".join(weapon) or None
    return out
