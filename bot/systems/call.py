"""A scene command typed in chat, whatever its rule system: the game, the sender, the scene
as read, the words; and the handlers' own refusal (bot/middlewares/refusals.py tells it)."""

from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from aiogram.types import Message

from engine.services import GameInfo, systems
from engine.services.scenes import SceneView

S = TypeVar("S")


class Call(Generic[S]):
    """One command of a scene of `kind`: `state` is the scene as read (the kind's `missing`
    refusal when none is open)."""

    kind: ClassVar[str]

    def __init__(
        self, message: Message, game: GameInfo, view: SceneView[S] | None, args: str | None
    ) -> None:
        assert message.from_user is not None
        self.message = message
        self.game = game
        self.view = view
        self.user_id = message.from_user.id
        self.gm = game.gm_id == self.user_id
        self.args = (args or "").strip()
        self.words = self.args.split()

    @property
    def state(self) -> S:
        if self.view is None:
            raise systems.scene_kind(self.kind).missing(game_id=self.game.id)
        return self.view.state
