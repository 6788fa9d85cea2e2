"""What each viewer sees of a SWADE encounter (the initiative board): an observation function
next to the rules, JSON-safe, for every surface that shows the board.

Public at the table: the round, the dealt cards and the turn order, who acts, Hold and
Jokers, interrupted/queued turns, the deck's counts, every character's name, Wild Card mark,
bennies, Shaken/Stunned, Wounds, Fatigue, conditions, injuries and out/bleeding/dead, the
damage waiting for a Soak, groups with their members, whether a character's last trait roll
may still be re-rolled with a benny (the chat shows that button to all), and the log of the
latest steps (given by the caller: the same steps the chat posts as text).

The GM's and the owner's only (DESIGN decision 3): a character's sheet — attributes, skills,
Parry, Toughness, armor, Pace, edges. The order of the face-down draw pile goes to nobody
(only counts).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from engine.observe import GM, Observer, private_audience
from engine.savage.actions import ATTACK_SKILLS, default_damage
from engine.savage.cards import Card
from engine.savage.character import Character
from engine.savage.encounter import Combatant, Encounter
from engine.savage.errors import RuleError
from engine.savage.reroll import rerollable


def card_json(card: Card | None) -> dict[str, Any] | None:
    if card is None:
        return None
    return {"code": card.code, "rank": card.rank, "suit": card.suit, "joker": card.is_joker}


def _sheet(c: Character) -> dict[str, Any]:
    return {
        "attributes": {name: str(die) for name, die in c.attributes},
        "skills": {name: str(die) for name, die in c.skills},
        "parry": c.current_parry(),
        "toughness": c.toughness,
        "armor": c.armor,
        "pace": c.current_pace(),
        "edges": list(c.edges),
    }


def can_reroll(state: Encounter, c: Character) -> bool:
    """A benny may re-roll the character's last trait roll now (engine.savage.reroll)."""
    if c.bennies <= 0 or state.last_roll(c.id) is None:
        return False
    try:
        rerollable(state, c.id)
    except RuleError:
        return False
    return True


def sees_sheet(c: Character, viewer: Observer) -> bool:
    """The GM and the character's owner see its sheet (DESIGN decision 3)."""
    return viewer.role == GM or (c.owner is not None and c.owner == viewer.user_id)


def owners_show_dice(owners: Iterable[int | None]) -> bool:
    """May the whole table (the group chat) see the die types of rolls of a character, or
    a chase participant, with these owners («Драка d12=…»: a sheet's dice)? A player's
    character: yes — its owner rolls in the open, as at the table, and the group sees that
    player's own rolls. An NPC (no owner), or a group with one member without: no — its
    sheet is the GM's alone, so the group gets the result without the dice (the Mini App's
    log never sends dice). No owners known (gone from the scene): the GM's."""
    known = list(owners)
    return bool(known) and all(owner is not None for owner in known)


def table_sees_dice(state: Encounter, some_id: str) -> bool:
    """`owners_show_dice` for a character or a combatant of the encounter."""
    for combatant in state.combatants:
        members = combatant.members if combatant.id == some_id else ()
        members = members or tuple(m for m in combatant.members if m.id == some_id)
        if members:
            return owners_show_dice(m.owner for m in members)
    return False


def _character(state: Encounter, c: Character, viewer: Observer) -> dict[str, Any]:
    s = c.status
    mine = c.owner is not None and c.owner == viewer.user_id
    out: dict[str, Any] = {
        "id": c.id,
        "name": c.name,
        "wild": c.wild,
        "owner": c.owner,
        "mine": mine,
        "bennies": c.bennies,
        "shaken": s.shaken,
        "stunned": s.stunned,
        "wounds": s.wounds,
        "fatigue": s.fatigue,
        "incapacitated": s.incapacitated,
        "bleeding_out": s.bleeding_out,
        "dead": s.dead,
        "out": s.out,
        "conditions": [{"kind": k.kind, "value": k.value, "until": k.until} for k in s.conditions],
        "injuries": [{"kind": i.kind, "duration": i.duration} for i in s.injuries],
        "reroll": can_reroll(state, c),
    }
    if sees_sheet(c, viewer):
        out["sheet"] = _sheet(c)
    return out


def _combatant(state: Encounter, c: Combatant, viewer: Observer) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "group": c.group or len(c.members) > 1,
        "card": card_json(c.card),
        "joker": c.has_joker,
        "hold": c.hold,
        "acted": c.acted,
        "in_fight": c.in_fight,
        "acting": state.current == c.id,
        "wild": c.wild,
        "mine": any(m.owner == viewer.user_id for m in c.members if m.owner is not None),
        "members": [_character(state, m, viewer) for m in c.members],
    }


def board_order(state: Encounter) -> list[Combatant]:
    """As the chat's board: dealt cards highest first, then on Hold without a card, then
    the rest (no card yet)."""
    dealt = list(state.order())
    hold = [c for c in state.combatants if c.card is None and c.hold]
    rest = [c for c in state.combatants if c.card is None and not c.hold]
    return dealt + hold + rest


def observe_encounter(
    state: Encounter,
    viewer: Observer,
    *,
    stream: str,
    seq: int,
    closed: bool = False,
    log: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The encounter as `viewer` may see it (JSON-safe), at `seq` of `stream`, with the
    public log of its latest steps."""
    s = state
    pending = None
    if s.pending is not None:
        p = s.pending
        pending = {
            "character": p.character,
            "wounds": p.wounds,
            "shaken": p.shaken,
            "soaked": p.soaked,
            "attempts": p.attempts,
        }
    return {
        "stream": stream,
        "seq": seq,
        "closed": closed,
        "round": s.round,
        "current": s.current,
        "up_next": s.up_next(),
        "suspended": list(s.suspended),
        "queued": list(s.queued),
        "deck": {
            "draw": len(s.deck.draw),
            "discard": len(s.deck.discard),
            "reshuffle": s.deck.needs_shuffle,
        },
        "combatants": [_combatant(s, c, viewer) for c in board_order(s)],
        "pending": pending,
        "log": list(log),
        # what an attack without dice does (the engine's reading, docs/rules/savage.md)
        "default_damage": {skill: default_damage(skill) for skill in ATTACK_SKILLS},
    }


def encounter_audience(state: Encounter, viewer: Observer) -> Hashable:
    """Observers with equal keys get equal JSON: the projection depends on the viewer only
    through «is the GM» and «owns a character here»."""
    owns = any(m.owner == viewer.user_id for c in state.combatants for m in c.members)
    return private_audience(viewer, owns)
