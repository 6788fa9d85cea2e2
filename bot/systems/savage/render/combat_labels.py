"""Rule terms as chat words (Шок, Рана, Джокер, Ожидание …): modifier labels, conditions,
traits, card faces. The engine gives codes; everything the players read is here."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _

from bot.render.common import quoted
from engine.savage import Card

SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
RANKS = {11: "J", 12: "Q", 13: "K", 14: "A"}


def card_text(card: Card | None) -> str:
    """«Q♥», «10♠», «🃏»."""
    if card is None:
        return "—"
    if card.is_joker:
        return "🃏"
    return RANKS.get(card.rank, str(card.rank)) + SUIT_SYMBOLS.get(card.suit, "?")


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def modifier_label(label: str) -> str:
    """Every label of `engine.savage.modifiers.LABELS` and of the chase rolls."""
    labels = {
        "trait_bonus": _("trait bonus"),
        "unskilled": _("unskilled"),
        "joker": _("Joker"),
        "wounds": _("Wounds"),
        "fatigue": _("fatigue"),
        "distracted": _("Distracted"),
        "multi_action": _("multi-action"),
        "support": _("Support"),
        "range": _("range"),
        "cover": _("cover"),
        "illumination": _("light"),
        "called_shot": _("called shot"),
        "gang_up": _("Gang Up"),
        "the_drop": _("the Drop"),
        "wild_attack": _("Wild Attack"),
        "vulnerable": _("Vulnerable"),
        "aim": _("Aim"),
        "aim_ignore": _("Aim ignores"),
        "bound": _("Bound"),
        "combat_reflexes": _("Combat Reflexes"),
        "modifier": _("modifier"),
        "standing": _("standing"),
        "change_position_action": _("as an action"),
        "complication": _("Complication"),
        "flee": _("Flee"),
    }
    return labels.get(label, quoted(label))


def condition_label(kind: str) -> str:
    labels = {
        "shaken": _("Shaken"),
        "stunned": _("Stunned"),
        "distracted": _("Distracted"),
        "vulnerable": _("Vulnerable"),
        "entangled": _("Entangled"),
        "bound": _("Bound"),
        "defend": _("Defend"),
        "support": _("Support"),
        "aim": _("Aim"),
        "prone": _("Prone"),
    }
    return labels.get(kind, quoted(kind))


def trait_label(code: str) -> str:
    labels = {
        "agility": _("Agility"),
        "smarts": _("Smarts"),
        "spirit": _("Spirit"),
        "strength": _("Strength"),
        "vigor": _("Vigor"),
        "fighting": _("Fighting"),
        "shooting": _("Shooting"),
        "athletics": _("Athletics"),
        "notice": _("Notice"),
        "intimidation": _("Intimidation"),
        "taunt": _("Taunt"),
        "healing": _("Healing"),
        "spellcasting": _("Kido"),
        "driving": _("Driving"),
        "riding": _("Riding"),
        "piloting": _("Piloting"),
        "boating": _("Boating"),
    }
    return labels.get(code, quoted(code.replace("_", " ")))


def outcome_label(outcome: str, raises: int = 0) -> str:
    if outcome == "raise" and raises > 1:
        return _("raise ×{count}").format(count=raises)
    labels = {
        "critical_failure": _("critical failure"),
        "failure": _("failure"),
        "success": _("success"),
        "raise": _("raise"),
    }
    return labels.get(outcome, quoted(outcome))


def rule_label(rule: str) -> str:
    """What shaped a card draw (CardDealt.rules)."""
    labels = {
        "level_headed": _("Level Headed"),
        "improved_level_headed": _("Improved Level Headed"),
        "quick": _("Quick"),
        "hesitant": _("Hesitant"),
        "benny": _("benny"),
    }
    return labels.get(rule, quoted(rule))
