"""Dealing, the turn pointer, Hold, interrupts and the start-of-turn procedures (seed 000
«Инициатива: карты действий», «Джокер», «Ожидание», «Шок»; official SWADE for Stunned and
Bleeding Out as DESIGN.md says)."""

from __future__ import annotations

from engine.dice.results import Modifier
from engine.savage.dice.results import TraitResult

from .builder import Builder
from .cards import DECK_SIZE, Card, best, full_deck, shuffled, worst
from .character import Character, Condition
from .encounter import Combatant
from .errors import RuleError
from .events import (
    BleedingOutResolved,
    CardDealt,
    ConditionAdded,
    DeckShuffled,
    FreeActionsOnly,
    HoldLost,
    Interrupted,
    Rolled,
    RoundEnded,
    RoundStarted,
    ShakenRemoved,
    StunnedRemoved,
    TurnEnded,
    TurnStarted,
)
from .modifiers import roll_modifiers
from .rolls import succeeded, trait_check

QUICK_REDRAW_AT_MOST = 5  # Quick: redraw a card of 5 or lower (DESIGN.md)


# --- dealing --------------------------------------------------------------------------


def _ensure_cards(b: Builder, count: int) -> None:
    """Running out in the middle of a deal: the discards are shuffled together with what is
    left of the pile (official SWADE; the seed only covers the Joker reshuffle). When even
    that is too few — more fighters than one deck holds — another full deck is shuffled in
    with them (docs/rules/savage.md «Running out of cards»)."""
    deck = b.state.deck
    if len(deck.draw) >= count:
        return
    if len(deck.draw) + len(deck.discard) < count:
        order = shuffled(deck.draw + deck.discard + full_deck(), b.rng)
        b.emit(DeckShuffled, order=order, reason="another_deck")
        return
    b.emit(DeckShuffled, order=deck.shuffled_order(b.rng), reason="empty")


def _draw(b: Builder, combatant_id: str, count: int, rules: tuple[str, ...], pick: str) -> Card:
    _ensure_cards(b, count)
    drawn = b.state.deck.draw[:count]
    kept = worst(drawn) if pick == "worst" and not any(c.is_joker for c in drawn) else best(drawn)
    if "benny" in rules:
        old = b.state.combatant(combatant_id).card
        kept = best((kept, old)) if old is not None else kept
    b.emit(CardDealt, combatant=combatant_id, drawn=drawn, kept=kept, rules=rules)
    return kept


def _leader(combatant: Combatant) -> Character:
    """Whose edges shape the draw: the character, or a group's first member (template)."""
    return combatant.members[0]


def deal_to(b: Builder, combatant: Combatant, *, benny: bool = False) -> None:
    """Level Headed draws 2 and Improved Level Headed 3, keeping the best; Hesitant draws 2
    and keeps the lowest unless one is a Joker; Hesitant cancels one step of Level Headed
    (our reading: LH + Hesitant draw one card, Improved LH + Hesitant draw two). A benny
    draws one new card and the better of old and new is kept. Quick then redraws while the
    kept card is 5 or lower (a Joker is never redrawn)."""
    leader = _leader(combatant)
    rules: tuple[str, ...]
    if benny:
        count, pick, rules = 1, "best", ("benny",)
    else:
        level = 2 if leader.has_edge("improved_level_headed") else 0
        level = level or int(leader.has_edge("level_headed"))
        level -= int(leader.has_edge("hesitant"))
        count, pick = {-1: (2, "worst"), 0: (1, "best"), 1: (2, "best"), 2: (3, "best")}[level]
        rule = {-1: "hesitant", 0: "", 1: "level_headed", 2: "improved_level_headed"}[level]
        rules = (rule,) if rule else ()
    kept = _draw(b, combatant.id, count, rules, pick)
    for _ in range(DECK_SIZE):  # bounded: a deck short of high cards cannot loop forever
        if not leader.has_edge("quick") or kept.is_joker or kept.rank > QUICK_REDRAW_AT_MOST:
            break
        kept = _draw(b, combatant.id, 1, ("quick",), "best")  # the new card replaces it


def end_round(b: Builder) -> None:
    if b.state.current is not None:
        b.emit(TurnEnded, combatant=b.state.current)
    for cid in reversed(b.state.suspended):
        b.emit(TurnEnded, combatant=cid)
    if b.state.round:
        b.emit(RoundEnded, round=b.state.round)


def deal_round(b: Builder) -> None:
    """Every Wild Card and every group of Extras gets a card (seed 000 line 7) — except those
    on Hold (line 21) and those out of the fight. A Joker dealt last round forces a
    reshuffle first (line 15)."""
    if not b.state.combatants:
        raise RuleError("no_combatants")
    end_round(b)
    deck = b.state.deck
    if deck.joker_dealt:
        b.emit(DeckShuffled, order=deck.shuffled_order(b.rng), reason="joker")
    elif not deck.draw:
        b.emit(DeckShuffled, order=deck.shuffled_order(b.rng), reason="start")
    b.emit(RoundStarted, round=b.state.round + 1)
    for combatant in b.state.combatants:
        if not combatant.hold and combatant.in_fight:
            deal_to(b, combatant)


# --- turns ----------------------------------------------------------------------------


def start_turn(b: Builder, combatant_id: str, via: str) -> None:
    b.emit(TurnStarted, combatant=combatant_id, via=via)
    if via != "resume":
        for member in b.state.combatant(combatant_id).members:
            _start_of_turn(b, member.id)


def start_next(b: Builder) -> bool:
    nxt = b.state.up_next()
    if nxt is None:
        return False
    if b.state.suspended and nxt == b.state.suspended[-1]:
        via = "resume"
    elif nxt in b.state.queued:  # lost an interrupt, or asked to act from Hold / a Joker
        via = can_act_out_of_order(b.state.combatant(nxt)) or "queued"
    else:
        via = "card"
    start_turn(b, nxt, via)
    return True


def next_turn(b: Builder) -> None:
    """End the current turn; start the next by card; at the end of a round deal the next."""
    if b.state.round == 0:
        deal_round(b)
        start_next(b)
        return
    if b.state.current is not None:
        b.emit(TurnEnded, combatant=b.state.current)
    if not start_next(b):
        deal_round(b)
        start_next(b)


def _recovery_bonus(character: Character) -> tuple[tuple[str, int], ...]:
    return (("combat_reflexes", 2),) if character.has_edge("combat_reflexes") else ()


def _roll(
    b: Builder,
    character_id: str,
    trait: str,
    purpose: str,
    extra: tuple[tuple[str, int], ...] = (),
) -> TraitResult:
    """A start-of-turn roll: a free trait roll with the character's own modifiers."""
    character = b.character(character_id)
    mods = roll_modifiers(b.state, character_id, "free")
    mods += tuple(Modifier(label, value) for label, value in extra)
    result = trait_check(b.rng, character.die(trait), wild=character.wild, modifiers=mods)
    b.emit(Rolled, character=character_id, purpose=purpose, trait=trait, result=result)
    return result


def _start_of_turn(b: Builder, character_id: str) -> None:
    character = b.character(character_id)
    status = character.status
    if status.dead:
        return
    if status.bleeding_out:
        # DESIGN.md: Vigor each turn — failure death, success roll again, raise stable
        result = _roll(b, character_id, "vigor", "bleeding_out")
        outcome = {"raise": "stable", "success": "bleeding"}.get(result.outcome, "dead")
        b.emit(BleedingOutResolved, character=character_id, outcome=outcome)
        return
    if status.incapacitated:
        return
    if status.stunned:
        # Official SWADE: Vigor at the start of the turn; success ends Stunned but leaves
        # Vulnerable until the end of the next turn; a raise, until the end of this one.
        result = _roll(b, character_id, "vigor", "stunned", _recovery_bonus(character))
        if not succeeded(result):
            return
        stunned_recovered(b, character_id, result)
    if b.character(character_id).status.shaken:
        spirit_roll(b, character_id)


def stunned_recovered(b: Builder, character_id: str, result: TraitResult) -> None:
    """Official SWADE: success ends Stunned but leaves Vulnerable until the end of the
    next turn; a raise, until the end of this one."""
    if b.character(character_id).status.stunned:
        b.emit(StunnedRemoved, character=character_id)
    turns_ended = b.character(character_id).status.turns_ended
    until = turns_ended + (1 if result.outcome == "raise" else 2)
    b.emit(
        ConditionAdded,
        character=character_id,
        condition=Condition("vulnerable", "end", until, source="stunned"),
    )


def spirit_roll(b: Builder, character_id: str) -> None:
    """seed 000 lines 67-68: Spirit as a free action; success acts, failure free only."""
    character = b.character(character_id)
    result = _roll(b, character_id, "spirit", "spirit", _recovery_bonus(character))
    spirit_outcome(b, character_id, result)


def spirit_outcome(b: Builder, character_id: str, result: TraitResult) -> None:
    if succeeded(result):
        b.emit(ShakenRemoved, character=character_id, reason="spirit")
    else:
        b.emit(FreeActionsOnly, character=character_id)


# --- Hold and acting out of order -----------------------------------------------------


def check_hold(b: Builder, some_id: str) -> None:
    """A character on Hold who is Shaken, Stunned or out loses Hold and its turn
    (DESIGN.md; official SWADE). A group keeps Hold while one member can still act."""
    combatant = b.combatant_of(some_id)
    if not combatant.hold:
        return
    able = [
        m for m in combatant.members if not (m.status.out or m.status.stunned or m.status.shaken)
    ]
    if able:
        return
    members = combatant.members
    reason = (
        "stunned"
        if any(m.status.stunned for m in members)
        else "shaken"
        if any(m.status.shaken for m in members)
        else "incapacitated"
    )
    b.emit(HoldLost, combatant=combatant.id, reason=reason)


def can_act_out_of_order(combatant: Combatant) -> str | None:
    if combatant.has_joker and not combatant.acted:
        return "joker"
    if combatant.hold:
        return "hold"
    return None


def interrupt(b: Builder, combatant: Combatant) -> None:
    """seed 000 line 20: «стороны делают встречные проверки Атлетики; победитель действует
    первым». A Joker acts at any moment (line 13), so it needs no roll. A tie is
    simultaneous in official SWADE; the interrupter's turn is entered first."""
    current = b.state.current
    if current is None:
        raise RuleError("nothing_to_interrupt")
    if current == combatant.id:
        raise RuleError("cannot_interrupt_self", {"id": combatant.id})
    how = can_act_out_of_order(combatant)
    if how is None:
        raise RuleError("not_on_hold", {"id": combatant.id})
    if how == "joker":
        b.emit(Interrupted, combatant=combatant.id, target=current, rolls=(), winner=combatant.id)
    else:
        mine = _opposed_athletics(b, combatant)
        theirs = _opposed_athletics(b, b.state.combatant(current))
        tie = mine.total == theirs.total
        winner = combatant.id if mine.total >= theirs.total else current
        b.emit(
            Interrupted,
            combatant=combatant.id,
            target=current,
            rolls=(mine, theirs),
            winner=winner,
            simultaneous=tie,
        )
    if b.state.current is None:  # the interrupter won
        start_turn(b, combatant.id, "interrupt")


def _opposed_athletics(b: Builder, combatant: Combatant) -> TraitResult:
    roller = (combatant.active_members or combatant.members)[0]
    mods = roll_modifiers(b.state, roller.id, "free")
    return trait_check(b.rng, roller.die("athletics"), wild=roller.wild, modifiers=mods)
