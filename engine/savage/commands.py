"""Commands: what a GM or a player asks for. ``decide`` checks them and returns events.

``by``: the Telegram user id of a player issuing the command, or ``None`` for the GM (who
may do everything). A player may act only for characters they own, and GM-only commands
refuse them. Character references take a character id; combatant-level commands (Hold,
act now, interrupt, new card) also accept a combatant id.
"""

from __future__ import annotations

from dataclasses import dataclass

from .character import Character


@dataclass(frozen=True, slots=True)
class Command:
    pass


# --- GM set-up ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AddCombatant(Command):
    """One character, or a group of Extras on one card (``members`` > 1). Character ids
    must be unique in the encounter; ``id`` names the combatant."""

    id: str
    name: str
    members: tuple[Character, ...]
    by: int | None = None


@dataclass(frozen=True, slots=True)
class RemoveCombatant(Command):
    id: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class DealRound(Command):
    """End the current round (if any) and deal the next one without starting a turn."""

    by: int | None = None


@dataclass(frozen=True, slots=True)
class NextTurn(Command):
    """End the current turn and start the next one; deals a new round when everyone has
    acted (also the first round)."""

    by: int | None = None


# --- initiative -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hold(Command):
    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class ActNow(Command):
    """A character on Hold or holding a Joker acts now when nobody is acting, or right
    after the current turn when somebody is (seed 000 lines 19-20: acting «позднее» is
    free; going before another's action is an `Interrupt`)."""

    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Interrupt(Command):
    """Cut into the current actor's declared action: a Joker simply acts first; a
    character on Hold rolls opposed Athletics (seed 000 line 20)."""

    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class DrawNewCard(Command):
    """Spend a benny for a new action card; the better card is kept."""

    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class DeclareActions(Command):
    actor: str
    count: int
    by: int | None = None


# --- actions --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attack(Command):
    """A Fighting, Shooting or Athletics (throwing) attack, then damage on a hit.

    ``damage``: dice text where «str»/«сил» stands for the attacker's Strength die, e.g.
    "str+d6", "2d6+1"; "" for the skill's default (`actions.default_damage`).
    ``range``: "short" | "medium" | "long" | "extreme";
    ``cover``: "" | "light" | "medium" | "heavy" | "near_total";
    ``light``: "" | "dim" | "dark" | "pitch"; ``called_shot``: "" | "limb" | "hand" |
    "head" | "vitals"; ``gang_up``: adjacent allies beyond the first attacker (before the
    defender's own adjacent allies are subtracted by the GM). ``free``: a free attack (e.g.
    a foe leaving melee) — not an action, triggered by the GM. ``modifiers``: extra
    (label, value) pairs from the GM."""

    actor: str
    target: str
    skill: str = "fighting"
    damage: str = ""
    ap: int = 0
    range: str = "short"
    cover: str = ""
    light: str = ""
    called_shot: str = ""
    gang_up: int = 0
    the_drop: bool = False
    wild_attack: bool = False
    free: bool = False
    modifiers: tuple[tuple[str, int], ...] = ()
    by: int | None = None


@dataclass(frozen=True, slots=True)
class ApplyDamage(Command):
    """GM damage without an attack roll: a fixed ``amount`` or rolled ``dice``."""

    target: str
    amount: int | None = None
    dice: str = ""
    ap: int = 0
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Soak(Command):
    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class AcceptDamage(Command):
    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class TraitRoll(Command):
    """Any other trait roll with the automatic modifiers; an action unless ``free``."""

    actor: str
    trait: str
    tn: int = 4
    free: bool = False
    modifiers: tuple[tuple[str, int], ...] = ()
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Support(Command):
    """``for_trait``: the ally's roll this helps ("" = their next trait roll)."""

    actor: str
    ally: str
    skill: str
    for_trait: str = ""
    modifiers: tuple[tuple[str, int], ...] = ()
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Test(Command):
    """``effect``: "distracted" or "vulnerable" (the attacker's choice, seed 000 line 42);
    ``attribute``: the resisting attribute (default: the skill's linked attribute)."""

    __test__ = False  # not a pytest class

    actor: str
    target: str
    skill: str
    effect: str = "distracted"
    attribute: str = ""
    modifiers: tuple[tuple[str, int], ...] = ()
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Defend(Command):
    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Aim(Command):
    """``mode``: "bonus" (+2 to the next ranged attack) or "ignore" (ignore up to 4 points
    of range, cover and called-shot penalties)."""

    actor: str
    mode: str = "bonus"
    by: int | None = None


@dataclass(frozen=True, slots=True)
class EscapeBonds(Command):
    """Break free from Entangled or Bound with Strength or Athletics (seed 000 line 83)."""

    actor: str
    trait: str = "athletics"
    by: int | None = None


# --- states and bennies ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Unshake(Command):
    """Spend a benny to remove Shaken at once (seed 000 line 69)."""

    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class Reroll(Command):
    """Spend a benny to re-roll the character's last trait roll of this turn; the better
    result is kept (DESIGN.md «re-roll a trait roll»; engine.savage.reroll)."""

    actor: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class GiveBennies(Command):
    actor: str
    count: int = 1
    by: int | None = None


@dataclass(frozen=True, slots=True)
class SetCondition(Command):
    """GM: ``duration`` "manual" | "end_of_next_turn" | "start_of_next_turn".
    ``kind`` "shaken" and "stunned" apply those states with their rules."""

    target: str
    kind: str
    duration: str = "manual"
    by: int | None = None


@dataclass(frozen=True, slots=True)
class ClearCondition(Command):
    target: str
    kind: str
    by: int | None = None


@dataclass(frozen=True, slots=True)
class CountChaseActions(Command):
    """Bookkeeping of a chase running beside the fight: the character's chase turn has
    ``declared`` actions and has taken ``used`` of them (Change Position as an action, Flee).
    One turn, one multi-action count (seed 000 lines 27-29; seed 001 line 15)."""

    character: str
    declared: int
    used: int
    by: int | None = None


@dataclass(frozen=True, slots=True)
class ChangeFatigue(Command):
    target: str
    delta: int
    by: int | None = None


@dataclass(frozen=True, slots=True)
class SetStatus(Command):
    """GM correction: wounds, fatigue, shaken, stunned, incapacitated, bleeding_out, dead."""

    target: str
    changes: tuple[tuple[str, int], ...]
    by: int | None = None
