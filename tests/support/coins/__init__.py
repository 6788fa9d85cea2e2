"""A tiny rule system from the test tree, «Монетки» (code ``coins``): no scenes, one roll kind
of its own — `/coin 3` tosses three coins and counts the heads, `/odds монета 3` gives the
exact odds. It shows that a system's rolls plug in through its registrations alone, touching
no shared module (docs/architecture.md, «Броски системы»): its rules and result type
(`engine.py`), its chat texts (`chat.py`) and one line per layer (`installed`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.render import dice as chat_dice
from bot.systems import registry as chat_registry
from engine.dice import commands, results
from engine.dice.odds import odds
from engine.services import systems

from . import chat, engine


@contextmanager
def installed() -> Iterator[None]:
    """The system registered in the engine and the chat for the block, then taken out again
    (the registries are the process's: the other tests see the three systems only)."""
    kept = [
        *(
            (table, dict(table))
            for table in (
                commands.BY_CODE,
                commands.BY_NAME,
                commands.BY_CHAT,
                commands.BY_WORD,
                commands.BY_ODDS_WORD,
                results.RESULTS.classes,
                results.RESULTS._tags,
                systems._SYSTEMS,
                chat_registry._SYSTEMS,
                chat_dice._TEXTS,
            )
        ),
    ]
    kept_lists = [(commands.ROLL_COMMANDS, list(commands.ROLL_COMMANDS))]
    kept_lists.append((results.RESULT_CLASSES, list(results.RESULT_CLASSES)))
    results.register_result(engine.CoinResult)
    systems.register(engine.COINS)  # engine/services/installed.py's line
    chat_registry.register(chat.CHAT)  # bot/systems/installed.py's line
    odds.cache_clear()
    try:
        yield
    finally:
        for table, copy in kept:
            table.clear()
            table.update(copy)  # type: ignore[attr-defined]
        for listed, items in kept_lists:
            listed[:] = items
        odds.cache_clear()
