"""The accumulator ``decide`` uses: emits events and evolves a working copy of the state,
so later rules within one command see the effects of earlier ones."""

from __future__ import annotations

from engine.dice.rng import Rng

from .character import Character
from .encounter import Combatant, Encounter
from .events import Event
from .evolve import evolve


class Builder:
    def __init__(self, state: Encounter, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.step = state.step + 1
        self.events: list[Event] = []

    def emit(self, cls: type[Event], **fields: object) -> Event:
        event = cls(step=self.step, **fields)
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event

    def character(self, character_id: str) -> Character:
        return self.state.character(character_id)

    def combatant_of(self, some_id: str) -> Combatant:
        return self.state.combatant_of(some_id)

    def end_of_next_turn(self, character_id: str) -> int:
        """The ``turns_ended`` count at which "until the end of its next turn" expires: the
        turn after the current one when the character is acting now (including a turn
        suspended by an interrupt), else its coming turn."""
        status = self.character(character_id).status
        return status.turns_ended + (2 if status.in_turn else 1)
