"""A submitted turn: the declared actions, the comment to the GM and the dice rolled at
submission («Броски делаем скрытно»; «Если нужно добавить какое то пояснение, пишем в поле
"Комментарий мастеру"»). The sealed receipt is ``make_receipt`` of the submission without
its comment (``committed``): the comment goes to the GM alone, never into what the topic
reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.codec import Coded
from engine.dice.results import DuelCheckResult, RollResult
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

    def committed(self) -> dict[str, Any]:
        """What the receipt commits to and the reveal shows: everything but the comment to
        the GM («Если нужно добавить какое то пояснение, пишем в поле "Комментарий
        мастеру"»: the GM's alone, so it is kept out of what the topic can read)."""
        return {k: v for k, v in self.to_dict().items() if k != "comment"}

    def receipt(self, salt: str) -> str:
        return make_receipt(self.committed(), salt)

    def receipt_checks(self, receipt: str, salt: str) -> bool:
        """The receipt is this submission's under ``salt`` (one sealed before the comment
        was kept out committed to the whole submission)."""
        return verify(receipt, self.committed(), salt) or verify(receipt, self.to_dict(), salt)
