"""Errors raised by the services. `code` is stable: the bot and the Mini App render it."""

from __future__ import annotations

from typing import Any, ClassVar


class ServiceError(Exception):
    """A refused use case: `code` (stable string) and `params` for the message."""

    code: ClassVar[str] = "service_error"

    def __init__(self, code: str | None = None, params: dict[str, Any] | None = None) -> None:
        self.code = code or type(self).code  # type: ignore[misc]
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(self.code, self.params)


class _Coded(ServiceError):
    """Subclasses carry their own code: ``NotGm(game_id=1)``."""

    def __init__(self, **params: Any) -> None:
        super().__init__(type(self).code, params)


class NotGm(_Coded):
    code = "not_gm"


class GameExists(_Coded):
    code = "game_exists"


class NoGame(_Coded):
    code = "no_game"


class GameEnded(_Coded):
    code = "game_ended"


class NotMember(_Coded):
    code = "not_member"


class NoUser(_Coded):
    code = "no_user"


class BadSystem(_Coded):
    code = "bad_system"


class BadName(_Coded):
    code = "bad_name"


class NoRoll(_Coded):
    code = "no_roll"


class NotHidden(_Coded):
    code = "not_hidden"


class AlreadyRevealed(_Coded):
    code = "already_revealed"


class EventConflict(_Coded):
    code = "event_conflict"


class StaleState(_Coded):
    """The user acted on a state that has changed since (`seq` now, `expected` seen)."""

    code = "stale_state"


class NothingToUndo(_Coded):
    code = "nothing_to_undo"


class StreamClosed(_Coded):
    code = "stream_closed"


class WrongAggregate(_Coded):
    code = "wrong_aggregate"


ERROR_CODES: dict[str, str] = {
    NotGm.code: "only the game's GM may do this",
    GameExists.code: "an active game already exists in this chat/topic",
    NoGame.code: "no such game (or no active game here)",
    GameEnded.code: "the game has ended",
    NotMember.code: "the user is not a member of the game",
    NoUser.code: "unknown user (touch_user was never called)",
    BadSystem.code: "unknown game system",
    BadName.code: "the game name is empty or too long",
    NoRoll.code: "no such roll",
    NotHidden.code: "the roll is not hidden",
    AlreadyRevealed.code: "the roll was already revealed",
    EventConflict.code: "another writer appended to the game's event log first",
    StaleState.code: "the scene changed since the user saw it; nothing was applied",
    NothingToUndo.code: "the stream has no step left to undo",
    StreamClosed.code: "the stream (e.g. an encounter) is closed",
    WrongAggregate.code: "the stream belongs to another kind of aggregate",
}


# --- rule systems, scenes and the characters library ------------------------------------


class WrongSystem(_Coded):
    code = "wrong_system"


class UnknownScene(_Coded):
    code = "unknown_scene"


class SceneActive(_Coded):
    code = "scene_active"


class NoCharacter(_Coded):
    code = "no_character"


class NotYourCharacter(_Coded):
    code = "not_your_character"


ERROR_CODES.update(
    {
        WrongSystem.code: "the game does not play this system (or no such system is installed)",
        UnknownScene.code: "no installed rule system has this kind of scene",
        SceneActive.code: "the game already has an open scene of this kind",
        NoCharacter.code: "no saved character or template with this name or id",
        NotYourCharacter.code: "a player may save, delete or move only their own characters",
    }
)
