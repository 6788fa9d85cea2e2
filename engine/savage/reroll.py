"""A benny re-rolls a trait roll (DESIGN.md, SWADE defaults: «Bennies: ... uses: re-roll a
trait roll, Soak, remove Shaken, draw a new action card»). The reading (docs/rules/savage.md
«Переброс за бенни»):

- What: the character's last trait roll of the current turn (``Encounter.rolls``; the end
  of any turn or round closes them). Re-rollable purposes: ``REROLLABLE``. Not: damage
  rolls, the resisting roll of a Test, the opposed Athletics of an interrupt, Bleeding Out
  and Incapacitation rolls (their outcomes — death, injuries — are already applied; the GM
  corrects with /status).
- Cost: one benny of the character (NPC Wild Cards spend their own, DESIGN.md «Wild Card
  NPCs 2»; Extras have none).
- A critical failure cannot be re-rolled (official SWADE).
- The same trait, modifiers and TN; the better total is kept, a tie keeps the earlier
  result; a critical failure on the re-roll is never kept.
- What the better result changes follows in the same step: an attack that now hits rolls
  its damage (+d6 on a raise); a Test now wins or raises; Support gives more; Spirit
  removes Shaken; Stunned recovery ends Stunned; an escape frees. An attack whose damage
  was already rolled is ``reroll_too_late`` (the honest version: no damage is taken back).
- Soak: re-rolling it is exactly another Soak (a benny, the best Soak counts), while the
  damage still waits.
"""

from __future__ import annotations

from engine.savage.dice.results import TraitResult

from . import actions, damage, initiative
from .builder import Builder
from .encounter import Encounter, LastRoll
from .errors import RuleError
from .events import BennySpent, ConditionRemoved, Rerolled
from .rolls import succeeded, trait_check

REROLLABLE = ("trait", "attack", "support", "test", "escape", "spirit", "stunned", "soak")
_OWN_LABELS = ("unskilled", "trait_bonus")  # trait_check adds these itself


def rerollable(state: Encounter, character_id: str) -> LastRoll:
    """The roll a benny would re-roll now, or the RuleError why not (no benny check)."""
    record = state.last_roll(character_id)
    if record is None:
        raise RuleError("nothing_to_reroll", {"id": character_id})
    if record.purpose not in REROLLABLE:
        raise RuleError("reroll_not_allowed", {"id": character_id})
    if record.result.outcome == "critical_failure":
        raise RuleError("reroll_critical_failure", {"id": character_id})
    character = state.character(character_id)
    if character.status.dead:
        raise RuleError("dead", {"id": character_id})
    if record.purpose == "soak":
        pending = state.pending
        if pending is None or pending.character != character_id:
            raise RuleError("reroll_too_late", {"id": character_id})
        return record
    if state.pending is not None:
        raise RuleError("damage_pending", {"target": state.pending.character})
    if record.closed:
        raise RuleError("reroll_too_late", {"id": character_id})
    return record


def reroll(b: Builder, character_id: str) -> None:
    record = rerollable(b.state, character_id)
    character = b.character(character_id)
    if character.bennies <= 0:
        raise RuleError("no_bennies")
    if record.purpose == "soak":
        damage.soak(b, character_id)  # another benny, another Vigor roll, the best counts
        return
    old = record.result
    b.emit(BennySpent, character=character_id, purpose="reroll")
    mods = tuple(m for m in old.modifiers if m.label not in _OWN_LABELS)
    new = trait_check(
        b.rng, character.die(record.trait), wild=old.wild_card, modifiers=mods, tn=old.tn
    )
    better = new.outcome != "critical_failure" and new.total > old.total
    b.emit(
        Rerolled,
        character=character_id,
        purpose=record.purpose,
        trait=record.trait,
        result=new,
        previous=old,
        kept="new" if better else "previous",
        target=record.target,
    )
    if better:
        _follow(b, record, old, new)


def _follow(b: Builder, record: LastRoll, old: TraitResult, new: TraitResult) -> None:
    """What the better result changes; ``new`` is better than ``old`` and not a critical
    failure, so every effect only grows."""
    cid, purpose = record.character, record.purpose
    if purpose == "attack" and succeeded(new) and record.follow is not None:
        if not b.character(record.target).status.dead:
            actions.hit(b, cid, record.target, new, record.follow)
    elif purpose == "spirit" and not succeeded(old) and succeeded(new):
        initiative.spirit_outcome(b, cid, new)
    elif purpose == "stunned" and succeeded(new) and new.outcome != old.outcome:
        initiative.stunned_recovered(b, cid, new)
        if not succeeded(old) and b.character(cid).status.shaken:
            initiative.spirit_roll(b, cid)  # the turn goes on as if the first roll succeeded
    elif purpose == "escape":
        bound = any(m.label == "bound" for m in old.modifiers)
        if not succeeded(old):
            actions.escape_effect(b, cid, new, bound=bound)
        elif bound and new.outcome == "raise" and b.character(cid).status.has("entangled"):
            b.emit(ConditionRemoved, character=cid, kind="entangled", reason="escaped")
    elif purpose == "support" and new.outcome != old.outcome:
        before = record.base or 0
        effect = record.follow.effect if record.follow is not None else ""
        actions.support_bonus(b, cid, record.target, new, before, effect)
    elif purpose == "test":
        _test(b, record, old, new)


def _test(b: Builder, record: LastRoll, old: TraitResult, new: TraitResult) -> None:
    follow = record.follow
    effect = follow.effect if follow is not None and follow.effect else "distracted"
    attribute = follow.attribute if follow is not None and follow.attribute else "spirit"
    target = b.character(record.target)
    if record.base is None:  # the first roll failed: the target resists only now
        if not succeeded(new) or target.status.dead:
            return
        resisted = actions.resist_roll(b, target.id, attribute, record.character)
        actions.test_effect(
            b, record.character, target.id, new.total, resisted, effect, before=None
        )
        return
    actions.test_effect(
        b, record.character, target.id, new.total, record.base, effect, before=old.total
    )
