"""The words the Storyteller chat reads, Russian as they are typed (the help lists them): the
system's names for /newgame and /app, the options' table words, and those of a typed attack
(`/attack <attacker> <target> <weapon> <flags>`: the attacker — a player's own fighter may
be left out —, the target, then the weapon and the flags in any order)."""

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
SIDES = {"фланг": FLANK, "тыл": REAR}
BLIND_WORDS = ("вслепую",)
NO_SPACE_WORDS = ("тесно", "без-места")
WILLPOWER_WORDS = ("св", "воля")
SPECIALTY_PREFIX = "спец"
AIM_WORD = "прицел"  # followed by one of AIMS

SYSTEM_WORDS = ("сказитель", "wod", "рассказчик", "мт", "мир-тьмы", "st")  # /newgame
APP_WORDS = {"бой": "initiative", "инициатива": "initiative", "fight": "initiative"}  # /app
HEAL, AIM = "heal", "aim"  # the options' tables (/options лечение, /options прицел)
TABLE_WORDS = {"лечение": HEAL, "излечение": HEAL, "прицел": AIM, "прицеливание": AIM}
RESET_WORDS = ("сброс", "reset")  # a table or an option back to its default


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
        elif w in SIDES:
            s = replace(s, side=SIDES[w])
        elif w in BLIND_WORDS:
            s = replace(s, blind=True)
        elif w in NO_SPACE_WORDS:
            s = replace(s, space=False)
        elif w in WILLPOWER_WORDS:
            s = replace(s, willpower=True)
        elif w.startswith(SPECIALTY_PREFIX):
            s = replace(s, specialty=True)
        elif w == AIM_WORD and i + 1 < len(words) and norm(words[i + 1]) in AIMS:
            i += 1
            s = replace(s, aim=AIMS[norm(words[i])])
        else:
            weapon.append(words[i])
        i += 1
    out.situation = s
    out.weapon = " ".join(weapon) or None
    return out
