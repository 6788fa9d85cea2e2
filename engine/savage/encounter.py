"""The encounter state: combatants (single characters or groups of Extras), the deck, the
round and the turn pointer. Frozen; only ``evolve`` builds new versions."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.codec import Coded
from engine.dice.results import Modifier
from engine.savage.dice.results import TraitResult

from .cards import Card, Deck
from .character import Character
from .errors import RuleError


@dataclass(frozen=True, slots=True)
class Combatant:
    """One initiative unit: a character, or a group of Extras acting on one card (seed 000
    line 7) whose members keep their own state. ``acted``: took (or lost) its turn this
    round. ``hold``: on Hold (seed 000 lines 17-21)."""

    id: str
    name: str
    members: tuple[Character, ...]
    group: bool = False
    card: Card | None = None
    hold: bool = False
    acted: bool = False

    @property
    def wild(self) -> bool:
        return any(m.wild for m in self.members)

    @property
    def active_members(self) -> tuple[Character, ...]:
        return tuple(m for m in self.members if not m.status.out)

    @property
    def in_fight(self) -> bool:
        """Still takes turns: someone not out, or a Wild Card Bleeding Out (it rolls at the
        start of its turns)."""
        return any(
            not m.status.out or (m.status.bleeding_out and not m.status.dead) for m in self.members
        )

    @property
    def has_joker(self) -> bool:
        return self.card is not None and self.card.is_joker

    def member(self, character_id: str) -> Character:
        for m in self.members:
            if m.id == character_id:
                return m
        raise RuleError("unknown_combatant", {"id": character_id})

    def with_member(self, character: Character) -> Combatant:
        members = tuple(character if m.id == character.id else m for m in self.members)
        return dataclasses.replace(self, members=members)


@dataclass(frozen=True, slots=True)
class PendingDamage:
    """Wounds waiting for a Soak decision (seed 000 line 117: «Сразу после получения Ран, до
    их применения»). ``soaked``: the best Soak result so far (Wounds removed)."""

    character: str
    wounds: int
    shaken: bool
    soaked: int = 0
    attempts: int = 0


@dataclass(frozen=True, slots=True)
class FollowUp:
    """What a roll still does if a benny re-roll improves it (``Rolled.follow``).

    An attack: the damage a hit rolls (``damage`` dice with the attacker's Strength die
    already in, ``ap``, the damage modifiers of the moment: Joker, Wild Attack, The Drop,
    called shot). A Test: ``effect`` (distracted / vulnerable) and the resisting
    ``attribute``. Support: ``effect`` = the ally's roll it is for ("" = the next one)."""

    damage: str = ""
    ap: int = 0
    damage_modifiers: tuple[Modifier, ...] = ()
    effect: str = ""
    attribute: str = ""


@dataclass(frozen=True, slots=True)
class LastRoll:
    """A character's most recent trait roll this turn: what a benny may re-roll
    (``engine.savage.reroll``). ``result``: the kept result so far (the better one after
    re-rolls); ``step``: the step that made or last re-rolled it. ``base``: Support — the
    ally's Support total before this roll; a Test — the target's resisting total (None
    until it resisted). ``closed``: the roll's effect was already used — an attack's damage
    was rolled, a Support bonus spent — so a re-roll is too late."""

    character: str
    purpose: str
    trait: str
    result: TraitResult
    step: int
    target: str = ""
    follow: FollowUp | None = None
    base: int | None = None
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Encounter(Coded):
    combatants: tuple[Combatant, ...] = ()
    deck: Deck = field(default_factory=Deck.fresh)
    round: int = 0
    current: str | None = None  # the combatant whose turn it is
    suspended: tuple[str, ...] = ()  # interrupted turns, resumed last-in first-out
    queued: tuple[str, ...] = ()  # lost an interrupt: acts right after the current turn
    pending: PendingDamage | None = None
    rolls: tuple[LastRoll, ...] = ()  # the last trait roll of each character this turn
    step: int = 0  # the last applied step

    # --- lookups --------------------------------------------------------------------

    def combatant(self, combatant_id: str) -> Combatant:
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        raise RuleError("unknown_combatant", {"id": combatant_id})

    def find(self, some_id: str) -> tuple[Combatant, Character]:
        """A character id (or a single combatant's id) -> its combatant and character."""
        for c in self.combatants:
            for m in c.members:
                if m.id == some_id:
                    return c, m
            if c.id == some_id and len(c.members) == 1:
                return c, c.members[0]
        raise RuleError("unknown_combatant", {"id": some_id})

    def combatant_of(self, some_id: str) -> Combatant:
        """A combatant id or a member's character id -> the combatant."""
        for c in self.combatants:
            if c.id == some_id or any(m.id == some_id for m in c.members):
                return c
        raise RuleError("unknown_combatant", {"id": some_id})

    def character(self, character_id: str) -> Character:
        return self.find(character_id)[1]

    def last_roll(self, character_id: str) -> LastRoll | None:
        for r in self.rolls:
            if r.character == character_id:
                return r
        return None

    @property
    def characters(self) -> tuple[Character, ...]:
        return tuple(m for c in self.combatants for m in c.members)

    # --- functional updates ---------------------------------------------------------

    def replace_combatant(self, combatant: Combatant) -> Encounter:
        combatants = tuple(combatant if c.id == combatant.id else c for c in self.combatants)
        return dataclasses.replace(self, combatants=combatants)

    def update_combatant(
        self, combatant_id: str, fn: Callable[[Combatant], Combatant]
    ) -> Encounter:
        return self.replace_combatant(fn(self.combatant(combatant_id)))

    def update_character(
        self, character_id: str, fn: Callable[[Character], Character]
    ) -> Encounter:
        combatant, character = self.find(character_id)
        return self.replace_combatant(combatant.with_member(fn(character)))

    # --- initiative -----------------------------------------------------------------

    @property
    def acting(self) -> Combatant | None:
        """The combatant whose turn it is (for the turn announcement)."""
        return self.combatant(self.current) if self.current is not None else None

    def owners(self, combatant_id: str) -> tuple[int, ...]:
        """Telegram user ids of the players owning the combatant's characters."""
        members = self.combatant(combatant_id).members
        found = {m.owner for m in members if m.owner is not None and not m.status.dead}
        return tuple(sorted(found))

    def order(self) -> tuple[Combatant, ...]:
        """Combatants with a card, highest card first (seed 000 line 8)."""
        dealt = [(c.card.sort_key, c) for c in self.combatants if c.card is not None]
        return tuple(c for _, c in sorted(dealt, key=lambda kc: kc[0], reverse=True))

    def waiting(self) -> tuple[Combatant, ...]:
        """Still to act this round by their card, in order."""
        return tuple(c for c in self.order() if not c.acted and not c.hold and c.in_fight)

    def up_next(self) -> str | None:
        """Who acts when the current turn ends: an interrupted turn resumes first, then a
        loser of an interrupt, then the next card."""
        if self.suspended:
            return self.suspended[-1]
        queued = [q for q in self.queued if self.combatant(q).in_fight]
        if queued:
            return queued[0]
        waiting = self.waiting()
        return waiting[0].id if waiting else None
