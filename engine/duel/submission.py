"""A submitted turn: the declared actions, the comment to the GM and the dice rolled at
submission («Броски делаем скрытно»; «Если нужно добавить какое то пояснение, пишем в поле
"Комментарий мастеру"»). The sealed receipt is ``make_receipt`` of the choices
(``choices``: the fighter, the turn and the actions) where the turn's dice are drawn once both
are sealed (a duel with a seed, dice.py), else of the submission with its dice
(``committed``); never of the comment, which goes to the GM alone, never into what the topic
reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.codec import Coded
from engine.dice.results import RollResult
from engine.duel.roll import DuelCheckResult
from engine.receipt import make_receipt, verify

from .actions import Action


@dataclass(frozen=True, slots=True)
class Bonus:
    """A labelled part of a roll's modifiers: ``stat`` (the fighter's Атака/Блок/Уклонение),
    ``ap``, ``flank`` (the flanking margin), ``trick`` (a trick's effect), ``series``."""

    code: str
    value: int


@dataclass(frozen=True, slots=True)
class ActionRoll:
    """The dice of one action: its d10 checks (two for full defense) with their bonuses,
    and for an attack one damage roll per blow."""

    checks: tuple[DuelCheckResult, ...]
    bonuses: tuple[Bonus, ...] = ()
    damage: tuple[RollResult, ...] = ()

    @property
    def check(self) -> DuelCheckResult:
        """The one that counts: «Делается два броска, из которых выбирается наибольший»."""
        return max(self.checks, key=lambda c: c.total)


@dataclass(frozen=True, slots=True)
class Submission(Coded):
    fighter: str
    turn: int
    actions: tuple[Action, ...]
    rolls: tuple[ActionRoll, ...]
    comment: str = ""

    @property
    def drawn(self) -> bool:
        """Its dice are in (a seeded turn's are drawn once both turns are sealed)."""
        return len(self.rolls) == len(self.actions)

    def choices(self) -> dict[str, Any]:
        """What a seeded turn's receipt commits to: the choices, without the dice (drawn
        from the seed and both receipts later) or the comment to the GM."""
        return {k: v for k, v in self.to_dict().items() if k not in ("comment", "rolls")}

    def committed(self) -> dict[str, Any]:
        """What the receipt commits to and the reveal shows: everything but the comment to
        the GM («Если нужно добавить какое то пояснение, пишем в поле "Комментарий
        мастеру"»: the GM's alone, so it is kept out of what the topic can read)."""
        return {k: v for k, v in self.to_dict().items() if k != "comment"}

    def receipt(self, salt: str, dice: bool = True) -> str:
        return make_receipt(self.committed() if dice else self.choices(), salt)

    def commits_choices(self, receipt: str, salt: str) -> bool:
        """The receipt is of the choices only (the dice drawn after both were sealed)."""
        return verify(receipt, self.choices(), salt)

    def receipt_payload(self, receipt: str, salt: str) -> dict[str, Any]:
        """What the receipt is of: the choices, or the submission with its dice."""
        return self.choices() if self.commits_choices(receipt, salt) else self.committed()

    def receipt_checks(self, receipt: str, salt: str) -> bool:
        """The receipt is this submission's under ``salt``: of its choices, of it with its
        dice, or (one sealed before the comment was kept out) of the whole submission."""
        return (
            self.commits_choices(receipt, salt)
            or verify(receipt, self.committed(), salt)
            or verify(receipt, self.to_dict(), salt)
        )
