"""Who may set which roll modifier (docs/rules/savage.md «Who may set what»).

A player declares the situation of their own action — the engine turns each declaration
into its fixed value from the rules' tables (range, cover, a called shot, Gang Up up to
+4, Wild Attack, Aim, several actions). Numbers the rules do not give belong to the GM:
free modifiers (seed 000 line 134: a described combo «не даёт бесплатных числовых
бонусов»), another target number for a trait roll, another attribute to resist a Test.
Where the seed does not say who decides (the light, line 93, which line 138 takes from
the scene's «Модификаторы окружения», and The Drop), the game's option `Table` decides; by
default it is the GM's call.

Pure: `decide` calls `check` with the command (``by`` set: a player) and the game's table.
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Attack, Command, Support, Test, TraitRoll
from .errors import RuleError

PLAYER, GM, TABLE = "player", "gm", "table"

# Every declarable part of a roll and who sets it (TABLE: the game's option).
WHO: dict[str, str] = {
    "multi_action": PLAYER,  # line 27: «Персонаж может заявить до трёх действий»
    "wild_attack": PLAYER,  # line 53
    "aim": PLAYER,  # line 51
    "called_shot": PLAYER,  # official SWADE: the attacker names the spot
    "range": PLAYER,  # the distance on the table (DESIGN.md's table)
    "cover": PLAYER,  # line 92: the target's cover, by its table
    "gang_up": PLAYER,  # at most +4 (actions.GANG_UP_CAP)
    "support_for": PLAYER,  # line 35: the ally's roll the Support helps
    "illumination": TABLE,  # lines 93 and 138: the scene's light
    "the_drop": TABLE,  # official SWADE: the GM judges a foe caught off guard
    "modifier": GM,  # line 134: no free numeric bonuses
    "tn": GM,  # a trait roll's target number other than 4
    "attribute": GM,  # line 41: the skill's linked attribute, unless the GM says otherwise
}
# The GM's free modifiers of one roll together (each label's value counts).
MAX_FREE_MODIFIER = 10
DEFAULT_TN = 4
MAX_TN = 99


@dataclass(frozen=True, slots=True)
class Table:
    """A game's choices where the seed is silent. ``players_set_scene``: players may
    declare the light and The Drop themselves (off: the GM's)."""

    players_set_scene: bool = False


def allowed(label: str, table: Table) -> bool:
    """May a player set ``label`` in a game with this table?"""
    who = WHO[label]
    return who == PLAYER or (who == TABLE and table.players_set_scene)


def settable(table: Table, *, gm: bool) -> tuple[str, ...]:
    """Every label of ``WHO`` the GM (``gm``) or a player may set: what a page offers."""
    return tuple(label for label in WHO if gm or allowed(label, table))


def declared(command: Command) -> tuple[str, ...]:
    """The labels of ``WHO`` this command sets away from their defaults."""
    labels: list[str] = []
    modifiers: tuple[tuple[str, int], ...] = getattr(command, "modifiers", ())
    if modifiers:
        labels.append("modifier")
    if isinstance(command, Attack):
        scene = (("illumination", bool(command.light)), ("the_drop", command.the_drop))
        labels += [label for label, on in scene if on]
    if isinstance(command, TraitRoll) and command.tn != DEFAULT_TN:
        labels.append("tn")
    if isinstance(command, Test) and command.attribute:
        labels.append("attribute")
    return tuple(labels)


_REFUSALS = {
    "modifier": "gm_sets_modifier",
    "tn": "gm_sets_tn",
    "attribute": "gm_sets_attribute",
    "illumination": "gm_sets_scene",
    "the_drop": "gm_sets_scene",
}


def check(command: Command, table: Table) -> None:
    """Refuse what a player (``by`` set) may not set, then values out of bounds (the GM's
    too): a free modifier and the sum of a roll's free modifiers within ±10, a label to
    each, a target number from 1 to 99."""
    if getattr(command, "by", None) is not None:
        for label in declared(command):
            if not allowed(label, table):
                raise RuleError(_REFUSALS[label])
    modifiers: tuple[tuple[str, int], ...] = getattr(command, "modifiers", ())
    if isinstance(command, (Attack, Support, Test, TraitRoll)):
        if any(not label for label, _ in modifiers):
            raise RuleError("bad_modifier", {"label": ""})
        values = [value for _, value in modifiers]
        if any(abs(v) > MAX_FREE_MODIFIER for v in (*values, sum(values))):
            raise RuleError("modifier_out_of_range", {"max": MAX_FREE_MODIFIER})
    if isinstance(command, TraitRoll) and not 1 <= command.tn <= MAX_TN:
        raise RuleError("bad_tn", {"max": MAX_TN})
