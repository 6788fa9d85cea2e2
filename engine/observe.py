"""Who looks at a scene: the observer a rule system's observation functions project for.

A scene's state is observed per viewer — the GM sees what only the GM may see, a player what
their own characters hold, a spectator what the table sees (DESIGN decision 3). Each rule
system writes its observation functions next to its rules (engine/<system>/observe.py); the
adapters hand them anything with a `user_id` and a `role` (the Mini App's Viewer is one).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol

GM, PLAYER, SPECTATOR = "gm", "player", "spectator"
PUBLIC: Hashable = "public"  # the audience every observer without a view of their own shares


class Observer(Protocol):
    @property
    def user_id(self) -> int: ...

    @property
    def role(self) -> str: ...  # GM | PLAYER | SPECTATOR


def private_audience(observer: Observer, owns: bool) -> Hashable:
    """The audience key of the usual rule «the GM sees all, an owner sees theirs»: the GM and
    each owner have a view of their own, everyone else shares `PUBLIC`."""
    if observer.role == GM:
        return (GM, observer.user_id)
    return ("owner", observer.user_id) if owns else PUBLIC
