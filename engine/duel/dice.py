"""The dice of a turn, one roll per turn (issue 26; seed 003 «Броски делаем скрытно»).

Each die of a submission has a *slot* named by what it is for, not by where the action
stands: ``attack1`` (the d10 of the fighter's first attack), ``attack1.blow2`` (the damage
die of its second blow), ``trick``, ``defense1.1`` (the second d10 of the first defense —
full defense rolls two). A fighter who changes the turn keeps every die of a slot the
earlier submission had: a changed block is still the same d10, a changed attack the same.

Where the duel has a committed seed (``DuelState.dice_seed``, drawn by the service when the
turn opens; its SHA-256 is posted in the topic before anyone chooses), a seal commits to the
choices only (``Submission.choices``) and draws nothing: the dice of the turn are drawn once
both turns are sealed (``DiceDrawn``, decide.py), every face
``1 + int(HMAC-SHA256(seed, "<turn>|<fighter>|<slot>|<receipt a>|<receipt b>"), 16) mod
sides``, the receipts being the two final sealed submissions' (hex, the duel's first fighter
first). The seed was fixed before the receipts existed, so the host cannot have chosen it to
favour a fighter; the receipts were sealed before the dice, so a player cannot have chosen
them to; after the reveal anyone checks the seed against the posted hash and each die
against the seed and both receipts (``verify_dice``). A turn sealed before this (its receipt
committed to the dice) was drawn at each seal from the seed alone (``receipts`` None). A duel
without a seed (started before the seeds, or a source that gives faces only — the tests'
scripted dice) draws each slot from ``rng`` at the seal, once, and keeps it through changes.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from engine.dice.results import DiceGroup
from engine.dice.rng import Rng

from .actions import Action, Attack, FullDefense, Trick
from .proposal import Published
from .submission import Submission


def dice_hash(seed: str) -> str:
    """What the topic gets when a turn opens: the hex SHA-256 of the turn's seed."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


Receipts = tuple[str, str]


def dice_message(turn: int, fighter: str, slot: str, receipts: Receipts | None = None) -> str:
    """The text a die's HMAC is of: the turn, the fighter, the slot and both sealed receipts
    (None: a turn drawn at each seal, before the receipts were mixed in)."""
    base = f"{turn}|{fighter}|{slot}"
    return base if receipts is None else f"{base}|{receipts[0]}|{receipts[1]}"


def seeded_face(
    seed: str, turn: int, fighter: str, slot: str, sides: int, receipts: Receipts | None = None
) -> int:
    message = dice_message(turn, fighter, slot, receipts).encode()
    digest = hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()
    return 1 + int(digest, 16) % sides


def slot_names(actions: Sequence[Action]) -> list[tuple[list[str], str]]:
    """Per action: the slots of its d10 checks, and the prefix of its damage slots."""
    counts = {"attack": 0, "defense": 0}
    out: list[tuple[list[str], str]] = []
    for a in actions:
        if isinstance(a, Attack):
            counts["attack"] += 1
            name = f"attack{counts['attack']}"
            out.append(([name], name))
        elif isinstance(a, Trick):
            out.append((["trick"], ""))
        else:
            counts["defense"] += 1
            n = counts["defense"]
            checks = 2 if isinstance(a, FullDefense) else 1
            out.append(([f"defense{n}.{i}" for i in range(checks)], ""))
    return out


def faces_of(sub: Submission) -> Iterator[tuple[str, int, int]]:
    """(slot, sides, face) of every die of a submission (none before they are drawn)."""
    if not sub.drawn:
        return
    for (checks, prefix), roll in zip(slot_names(sub.actions), sub.rolls, strict=True):
        for slot, c in zip(checks, roll.checks, strict=False):
            yield slot, c.die.sides, c.die.value
        for j, d in enumerate(roll.damage, start=1):
            (group,) = d.results[0].tokens
            assert isinstance(group, DiceGroup)  # a damage roll is one die, dX
            yield f"{prefix}.blow{j}", group.sides, group.dice[0].value


@dataclass
class TurnDice:
    """Where one submission's faces come from: the seed, else ``rng`` once per slot, the
    faces of the fighter's earlier submissions this turn kept (``kept``: slot → (sides,
    face))."""

    turn: int
    fighter: str
    rng: Rng
    seed: str = ""
    kept: dict[str, tuple[int, int]] = field(default_factory=dict)
    receipts: Receipts | None = None  # both sealed receipts, mixed with the seed

    def face(self, slot: str, sides: int) -> int:
        if self.seed:
            return seeded_face(self.seed, self.turn, self.fighter, slot, sides, self.receipts)
        if slot in self.kept and self.kept[slot][0] == sides:
            return self.kept[slot][1]
        face = self.rng.randint(1, sides)
        self.kept[slot] = (sides, face)
        return face


def verify_dice(
    seed: str, posted_hash: str, sub: Submission, receipts: Receipts | None = None
) -> bool:
    """After the reveal: the seed is the one whose hash was posted, and every die of the
    submission is the seed's mixed with both sealed receipts (``mixed_receipts``)."""
    if not hmac.compare_digest(dice_hash(seed), posted_hash.lower()):
        return False
    return all(
        face == seeded_face(seed, sub.turn, sub.fighter, slot, sides, receipts)
        for slot, sides, face in faces_of(sub)
    )


def mixed_receipts(turn: Published) -> Receipts | None:
    """The two receipts a published turn's dice were drawn with (``receipts_of``)."""
    reveals = {r.fighter: (r.receipt, r.salt) for r in turn.reveals}
    return receipts_of(turn.proposal.submissions, reveals)


def receipts_of(
    subs: Sequence[Submission], reveals: Mapping[str, tuple[str, str]]
) -> Receipts | None:
    """The revealed receipts (fighter → receipt, salt) of a turn's two submissions, the
    duel's first fighter first, when both commit to the choices only (the dice drawn once
    both were sealed); None for a turn whose receipts committed to dice drawn at each seal."""
    pairs = [reveals.get(s.fighter) for s in subs]
    if len(subs) != 2 or not all(
        p is not None and s.commits_choices(*p) for s, p in zip(subs, pairs, strict=True)
    ):
        return None
    a, b = (p[0] for p in pairs if p is not None)
    return a, b
