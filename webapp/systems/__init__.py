"""The rule systems of the Mini App: the shared interface (registry.py: a system's web
adapter; commands.py: board commands) and one package per system (<code>/), registered in
installed.py."""

from __future__ import annotations

from webapp.systems import installed  # noqa: F401  (registers the systems' adapters)
