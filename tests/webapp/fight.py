"""Moved to tests/webapp/systems/savage/fight.py; re-exported here for the chat's Mini App
tests (tests/bot/) until they import it from there."""

from __future__ import annotations

from tests.webapp.systems.savage.fight import GRIMMJOW, HOLLOWS, ICHIGO, RUKIA, make_fight

__all__ = ["GRIMMJOW", "HOLLOWS", "ICHIGO", "RUKIA", "make_fight"]
