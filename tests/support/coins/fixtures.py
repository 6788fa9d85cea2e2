"""The example system's pytest fixtures, for the test modules that play it: import
`coins_installed` and `coins_dispatcher` into the module (pytest takes fixtures from its
namespace); they serve as `installed` and `dp`."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from aiogram import Dispatcher
from aiogram.utils.i18n import I18n

from bot.app import build_dispatcher
from bot.settings import Settings
from tests.support import coins


@pytest.fixture(name="installed")
def coins_installed() -> Iterator[None]:
    with coins.installed():
        yield


@pytest.fixture(name="dp")
def coins_dispatcher(installed: None, db: object, settings: Settings, i18n: I18n) -> Dispatcher:
    """The dispatcher built once the system is in: its routers take the roll commands then."""
    return build_dispatcher(settings, rng=random.Random(1), i18n=i18n)
