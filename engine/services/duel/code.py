"""The duel's code in the registry of rule systems (stored with its games)."""

from __future__ import annotations

CODE = "duel"
