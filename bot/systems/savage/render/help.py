"""The Savage Worlds section of /help and its entries of the command menu."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _


def combat_help() -> str:
    return _(
        "<b>Fight (Savage Worlds)</b> — names in Russian, «кто» may be left out for your "
        "own character\n"
        "<code>/char Ичиго (Дикий) Ловкость d8, Драка d10; Защита 7, Стойкость 8 (2)</code> "
        "— save a character; <code>/char Ичиго json</code> — its JSON, "
        "<code>/char {...}</code> — save from JSON; /chars — the list\n"
        "GM: /fight — start (<code>/fight конец</code> — end); <code>/add Ичиго</code>, "
        "<code>/add Пустой ×6</code> or /add with a block; <code>/remove Пустой 3</code>; "
        "/deal; /next; /undo\n"
        "<code>/hit Ичиго 12</code>, <code>/hit Пустой 2 2d6+1 бп 2</code> — damage; "
        "<code>/cond Ичиго отвлечён</code>, <code>/cond Ичиго -отвлечён</code>, "
        "<code>/shaken Ичиго</code>, <code>/fatigue Ичиго +1</code>, "
        "<code>/status Ичиго раны 1</code>, <code>/benny Рукия 2</code>; "
        "<code>/check Ичиго внимание -2 цн 6</code> — a free modifier (at most ±10 in all) "
        "and another TN are the GM's; <code>/scene игроки</code> — players declare the "
        "light and The Drop too\n"
        "Everyone for their own: /hold, <code>/act</code>, <code>/interrupt</code>, "
        "<code>/card</code> (a benny for a new card), <code>/actions 2</code>, "
        "<code>/attack Гриммджо безрассудная</code>, "
        "<code>/attack Рукия Пустой 2 стрельба 2d6 средняя укрытие лёгкое</code>, "
        "<code>/check внимание</code>, <code>/support Ичиго драка</code>, "
        "<code>/test Гриммджо провокация уязвим</code>, /defend, /aim, /escape, "
        "/soak, /take, /unshake, <code>/reroll</code> — a benny "
        "re-rolls your last trait roll this turn, the better result counts; also the "
        "«🎲 Benny: re-roll» button under the roll\n"
        "\n"
        "<b>Chase</b>\n"
        "GM: /chase — nine cards; <code>/chase add Ичиго беглецы 3</code>, "
        "<code>/chase end</code>; the turns follow /next\n"
        "<code>/move вперёд</code>, <code>/move назад действием</code>, "
        "<code>/back 2</code>, <code>/bump Гриммджо назад</code>, /flee"
    )


def section() -> str:
    """Its section of /help: the fight and the chase, and /board."""
    return combat_help() + "\n\n" + board_help()


def board_help() -> str:
    return _(
        "/board — the live board of the fight (and of the chase) posted again at the bottom "
        "of the chat, as «⬇️ Board down» under a turn's message does; I pin it where I may "
        "pin messages"
    )


def rolls_help() -> str:
    return _(
        "<code>/t d8+1</code> — Savage Worlds trait roll with the Wild Die\n"
        "<code>/t d12+2 -2 цн 6</code> — with modifiers and target number 6\n"
        "<code>/dmg 2к6+1 против 6</code> — damage against Toughness 6"
    )


def rolls_menu() -> list[tuple[str, str]]:
    return [
        ("t", _("Savage Worlds trait roll: /t d8+1")),
        ("dmg", _("Damage vs Toughness: /dmg 2d6+1 vs 6")),
    ]


def menu() -> list[tuple[str, str]]:
    return [
        ("fight", _("Start or show a fight")),
        ("board", _("The live board at the bottom of the chat")),
        ("next", _("Next turn")),
        ("attack", _("Attack: /attack Гриммджо")),
        ("hit", _("GM: damage without a roll")),
        ("soak", _("Soak damage with a benny")),
        ("reroll", _("Re-roll your last trait roll with a benny")),
        ("undo", _("GM: undo the last step")),
        ("chase", _("Start or show a chase")),
        ("move", _("Chase: change position")),
        ("flee", _("Chase: flee")),
    ]


def screen_names() -> dict[str, str]:
    """Its Mini App screens, as the /app answer names them."""
    return {"initiative": _("the initiative board"), "chase": _("the chase board")}


def title() -> str:
    return _("Savage Worlds (SWADE)")
