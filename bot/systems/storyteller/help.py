"""The Storyteller section of /help and its entries of the command menu."""

from __future__ import annotations

from aiogram.utils.i18n import gettext as _


def title() -> str:
    return _("Storyteller (d10 pools)")


def help_text() -> str:
    return (
        _(
            "<b>Fight (Storyteller)</b> — names as on the board, your own fighter may be left "
            "out\n"
            "<code>/char Имя: Вероника…</code> (a sheet block, one «Ключ: значение» a line) — "
            "save a character; /char — the example; <code>/char Вероника json</code> — its "
            "JSON; /chars — the list; GM: <code>/npc Имя: Бандит…</code> — an NPC template\n"
            "GM: /fight — start (<code>/fight конец</code> — end); <code>/add Вероника</code>, "
            "<code>/add Бандит ×3</code>; <code>/ambush Вероника Бандит 1</code>; /init — "
            "initiative; /undo; /options — the game's readings and tables (GM: "
            "<code>/options проверка нет</code>)\n"
            "Everyone for their own: /delay, /yield, /done, /fulldef, <code>/actions 2</code>, "
            "<code>/attack Бандит 1 нож уворот</code> (defenses: блок, уворот, парирование; "
            "прерывание or прерывание-очко — a Willpower interrupt; фланг, тыл, вслепую, "
            "<code>прицел маленькая</code>, св — a Willpower success, спец)\n"
            "An attack is first shown to the GM in private: the GM changes it with the buttons "
            "and publishes it (or /publish, /drop here)\n"
            "Actions of the seed: <code>/p прыжок 4</code>, <code>/p карабкаться 5</code>, "
            "<code>/p допрос 6</code> — the pool with the action's difficulty and what its "
            "successes mean\n"
            "<code>/heal Вероника</code> — how long the fighter's wounds take to heal"
        )
        + "\n"
        + _(
            "/board — the fight's live board posted again at the bottom of the chat, as "
            "«⬇️ Board down» under a new turn's message does; I pin it where I may pin messages"
        )
        + "\n"
        + _(
            "Or by taps: «⚔️ Attack» on the board — whom, with what, how; the attacked player "
            "taps a defense on the attack's message (the time to choose: "
            "<code>/options защита-время 60</code>)"
        )
    )


def rolls_help() -> str:
    return _(
        "<code>/p 7 6</code> — Storyteller pool: 7 dice, difficulty 6\n"
        "<code>/p 7 сл 6 спец вс</code> — with a specialty and a Willpower point"
    )


def rolls_menu() -> list[tuple[str, str]]:
    return [("p", _("Storyteller pool: /p 7 6"))]


def menu() -> list[tuple[str, str]]:
    return [
        ("board", _("The live board at the bottom of the chat")),
        ("init", _("Storyteller: roll initiative")),
        ("delay", _("Storyteller: delay your action")),
        ("publish", _("Storyteller GM: publish the attack")),
    ]


def screen_names() -> dict[str, str]:
    return {"initiative": _("the initiative board")}
