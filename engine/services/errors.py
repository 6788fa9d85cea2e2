"""Errors raised by the services. `code` is stable; its sentence is the English template of
`ERROR_CODES` (the msgid of the ``engine`` catalog), which the bot and the Mini App translate.
A rule system's services declare their refusals as `Refused` classes with their template
(engine/services/<system>/errors.py): declaring one adds it to the table."""

from __future__ import annotations

from typing import Any

from engine import describe
from engine.describe import Template
from engine.errors import CodedError

ERROR_CODES: dict[str, Template] = {}
describe.register("service", ERROR_CODES)


class ServiceError(CodedError):
    """A refused use case: `code` (stable string) and `params` for the message."""

    family = "service"
    codes = ERROR_CODES
    strict = False  # the table grows with the installed systems
    code = "service_error"  # a subclass names its own

    def __init__(self, code: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(code or type(self).code, params)


class Refused(ServiceError):
    """Subclasses carry their own code: ``NotGm(game_id=1)``. A rule system's refusal is
    declared with its code and English template, which join the table:
    ``class NoVote(Refused, code="no_vote", template="No vote is being held here.")``."""

    def __init_subclass__(
        cls, *, code: str = "", template: Template | None = None, **kwargs: object
    ) -> None:
        super().__init_subclass__(**kwargs)
        if code:
            cls.code = code
        if template is not None:
            ERROR_CODES[cls.code] = template

    def __init__(self, **params: object) -> None:
        super().__init__(type(self).code, params)


class NotGm(Refused):
    code = "not_gm"


class GameExists(Refused):
    code = "game_exists"


class NoGame(Refused):
    code = "no_game"


class GameEnded(Refused):
    code = "game_ended"


class NotMember(Refused):
    code = "not_member"


class NoUser(Refused):
    code = "no_user"


class BadSystem(Refused):
    code = "bad_system"


class BadName(Refused):
    code = "bad_name"


class NameEmpty(BadName):
    """Nothing visible is left of the name once invisible characters are removed."""

    code = "name_empty"


class NameTooLong(BadName):
    code = "name_too_long"


class NameLooksAlike(BadName):
    """`name` reads as `existing`, another name of the game (a Latin letter among Cyrillic
    ones, say): the two could not be told apart in a list."""

    code = "name_looks_alike"


class NoRoll(Refused):
    code = "no_roll"


class NotHidden(Refused):
    code = "not_hidden"


class AlreadyRevealed(Refused):
    code = "already_revealed"


class BadTimeZone(Refused):
    code = "bad_time_zone"


class EventConflict(Refused):
    code = "event_conflict"


class StaleState(Refused):
    """The user acted on a state that has changed since (`seq` now, `expected` seen)."""

    code = "stale_state"


class NothingToUndo(Refused):
    code = "nothing_to_undo"


class StreamClosed(Refused):
    code = "stream_closed"


class WrongAggregate(Refused):
    code = "wrong_aggregate"


ERROR_CODES.update(
    {
        NotGm.code: "Only the game's GM can do that.",
        GameExists.code: "This chat already has a game: {name}.",
        NoGame.code: "There is no such game here.",
        GameEnded.code: "That game is over.",
        NotMember.code: "You are not in that game.",
        NoUser.code: "I don't know that person yet: they should write in the chat first.",
        BadSystem.code: "Unknown game system.",
        BadName.code: "The name is empty or longer than {max} characters.",
        NameEmpty.code: "The name is empty: it has no visible character.",
        NameTooLong.code: "The name is longer than {max} characters: shorten it.",
        NameLooksAlike.code: (
            "The name «{name}» looks just like «{existing}», already in this game, but is "
            "written with other letters (Latin ones among Cyrillic, say). To change "
            "«{existing}», write its name the same way; else choose another name."
        ),
        NoRoll.code: "There is no roll #{roll_id}.",
        NotHidden.code: "Roll #{roll_id} is not hidden: everyone has already seen it.",
        AlreadyRevealed.code: "Roll #{roll_id} has already been revealed.",
        BadTimeZone.code: (
            "Unknown time zone {zone}: write a name like Europe/Moscow or Asia/Yekaterinburg."
        ),
        EventConflict.code: "Someone changed the game at the same moment. Please try again.",
        StaleState.code: "The board has changed since: look at it again.",
        NothingToUndo.code: "There is nothing to undo.",
        StreamClosed.code: "That part of the game is already closed.",
        WrongAggregate.code: "This action does not fit that part of the game.",
    }
)


# --- rule systems, scenes and the characters library ------------------------------------


class WrongSystem(Refused):
    code = "wrong_system"


class UnknownScene(Refused):
    code = "unknown_scene"


class SceneActive(Refused):
    code = "scene_active"


class NoScene(Refused):
    """None of a scene kind is open (a kind without a refusal of its own says this)."""

    code = "no_scene"


class NoCharacter(Refused):
    code = "no_character"


class NotYourCharacter(Refused):
    code = "not_your_character"


ERROR_CODES.update(
    {
        WrongSystem.code: "This game is played by another system: {system}.",
        UnknownScene.code: "There is no such scene in this game.",
        SceneActive.code: "This is already going on in this game.",
        NoScene.code: "Nothing of the kind is going on in this game now.",
        NoCharacter.code: "There is no character or template with that name.",
        NotYourCharacter.code: (
            "This is not your character: you can change only your own characters."
        ),
    }
)
