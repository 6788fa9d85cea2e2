"""A tiny rule system from the test tree, «Монетки» (code ``coins``): one scene — a coin-toss
contest (`contest.py`: start, each player tosses by the board's button or /toss, the GM
undoes a toss and ends it) served by the one scene service — and one roll kind of its own:
`/coin 3` tosses three coins and counts the heads, `/odds монета 3` gives the exact odds.
It shows that a system plugs in through its registrations alone, touching no shared module
(docs/architecture.md, «Новая система в семи файлах»): its rules (`engine.py`, `contest.py`),
its services (`services.py`), its chat (`chat.py`, `table.py`), its Mini App API (`web.py`)
and one line per layer (`installed`)."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping, MutableSequence, MutableSet
from contextlib import contextmanager
from typing import Any

from bot.render import dice as chat_dice
from bot.systems import registry as chat_registry
from engine.dice import commands, results
from engine.dice.odds import odds
from engine.services import notify, systems
from engine.services.aggregates import model
from webapp import errors as web_errors
from webapp.systems import registry as web_registry

from . import chat, engine, web
from .services import COINS

# the process's registries the registration lines add to
_TABLES: tuple[Any, ...] = (
    commands.BY_CODE,
    commands.BY_NAME,
    commands.BY_CHAT,
    commands.BY_WORD,
    commands.BY_ODDS_WORD,
    commands.ROLL_COMMANDS,
    results.RESULTS.classes,
    results.RESULTS._tags,
    results.RESULT_CLASSES,
    systems._SYSTEMS,
    systems._SCENES,
    model._REGISTERED,
    notify._topics,
    chat_registry._SYSTEMS,
    chat_dice._TEXTS,
    web_registry._SYSTEMS,
    web_registry._TOPICS,
    web_errors.ERRORS,
)


def _copy(table: Any) -> Any:
    return table.copy()


def _restore(table: Any, kept: Any) -> None:
    if isinstance(table, MutableMapping | MutableSet):
        table.clear()
        table.update(kept)
    else:
        assert isinstance(table, MutableSequence)
        table[:] = kept


@contextmanager
def installed() -> Iterator[None]:
    """The system registered in the engine, the chat and the Mini App for the block, then
    taken out again (the registries are the process's: the other tests see the three systems
    only). Build the dispatcher and the web app inside the block: they read the registries."""
    kept = [(table, _copy(table)) for table in _TABLES]
    results.register_result(engine.CoinResult)  # where a real system's result type is defined
    systems.register(COINS)  # engine/services/installed.py's line
    chat_registry.register(chat.CHAT)  # bot/systems/installed.py's line
    web_registry.register(web.WEB)  # webapp/systems/installed.py's line
    odds.cache_clear()
    try:
        yield
    finally:
        for table, copy in kept:
            _restore(table, copy)
        odds.cache_clear()
