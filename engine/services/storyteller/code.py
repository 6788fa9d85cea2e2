"""The rule system's code, stored with its games and library characters."""

from __future__ import annotations

CODE = "storyteller"
